import { z } from 'zod';

/**
 * An allow-list entry: an exact origin (`https://shop.example.com`, `http://localhost:5173`) or a
 * wildcard subdomain over https (`https://*.example.com`). Nothing else: no paths, no bare `*`.
 */
export function parseOriginPattern(entry: string): { wildcard: boolean; origin: string } | null {
  const wildcard = entry.startsWith('https://*.');
  const candidate = wildcard ? `https://${entry.slice('https://*.'.length)}` : entry;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.origin !== candidate || url.username || url.password) return null;
  if (wildcard && (url.port !== '' || !url.hostname.includes('.'))) return null;
  return { wildcard, origin: url.origin };
}

export const ZOriginPattern = z
  .string()
  .max(253)
  .refine((entry) => parseOriginPattern(entry) !== null, {
    message: 'must be an origin such as https://www.example.com or https://*.example.com',
  });
