import { parseOriginPattern } from '@partner/contracts';

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
    const domain = new URL(pattern.origin).hostname;
    return url.protocol === 'https:' && url.port === '' && url.hostname.endsWith(`.${domain}`);
  });
}
