import { parseOriginPattern } from '@partner/contracts';
import { getDomain } from 'tldts';

/**
 * A wildcard must sit on a registrable domain: `https://*.co.uk` (a public suffix, per the Public
 * Suffix List) would allow every site under it. Private suffixes (`github.io`) count as suffixes too.
 */
export function isWildcardTooBroad(entry: string): boolean {
  const pattern = parseOriginPattern(entry);
  if (!pattern?.wildcard) return false;
  const base = new URL(pattern.origin).hostname;
  // A public suffix has no registrable domain of its own.
  return getDomain(base, { allowPrivateDomains: true }) === null;
}

/**
 * Whether a browser `Origin` header value is on an allow-list of exact origins and `https://*.domain`
 * wildcards. A wildcard matches subdomains at any depth over https on the default port, never the
 * bare domain, never `domain.evil.com`, never `evildomain`.
 */
export function isOriginAllowed(origin: string | undefined, allowList: readonly string[]): boolean {
  if (!origin || origin === 'null') return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  // A real Origin header is exactly scheme://host[:port]; anything else is not an origin.
  if (url.origin !== origin) return false;
  return allowList.some((entry) => {
    const pattern = parseOriginPattern(entry);
    if (!pattern) return false;
    if (!pattern.wildcard) return pattern.origin === url.origin;
    if (isWildcardTooBroad(entry)) return false;
    const domain = new URL(pattern.origin).hostname;
    return url.protocol === 'https:' && url.port === '' && url.hostname.endsWith(`.${domain}`);
  });
}
