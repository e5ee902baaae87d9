import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

// SSRF protection (DESIGN.md section 5): a webhook may only reach public unicast addresses. Checked
// when an endpoint is registered and again on every attempt, where the name is resolved once and the
// connection made to exactly the address that was checked (no second resolution to rebind).

/** IPv6's global unicast block: everything outside it (IPv4-compatible `::/96` included) is refused. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * Public unicast only: not private, loopback, link-local, unique-local, CGNAT, multicast or reserved;
 * for IPv6, only global unicast (2000::/3) outside its special blocks (6to4, Teredo, documentation...).
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.range() !== 'unicast') return false;
  return parsed.kind() === 'ipv4' || (parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6);
}

export class TargetRefused extends Error {}

/**
 * Said with every refusal that the development switch would lift, so that someone trying a receiver on
 * their own machine learns what to set (`pnpm start` sets it; production keeps it off).
 */
export const PRIVATE_TARGETS_SETTING = 'WEBHOOK_ALLOW_PRIVATE_TARGETS=true, for local development only';

export interface TargetPolicy {
  allowPrivate: boolean;
}

/** The URL if it may be a webhook target; a TargetRefused saying why otherwise. */
export function checkTargetUrl(raw: string, policy: TargetPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefused('url: must be an absolute URL');
  }
  if (url.protocol !== 'https:' && !(policy.allowPrivate && url.protocol === 'http:')) {
    throw new TargetRefused(`url: webhook endpoints must use https (http:// targets need ${PRIVATE_TARGETS_SETTING})`);
  }
  if (url.username || url.password) throw new TargetRefused('url: must not contain credentials');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !policy.allowPrivate && !isPublicAddress(host)) {
    throw new TargetRefused(`url: private, loopback and link-local addresses are not allowed (they need ${PRIVATE_TARGETS_SETTING})`);
  }
  return url;
}

function resolveAll(hostname: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => dnsLookup(hostname, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));
}

/** Resolves the name and refuses it if any address it resolves to is not public. */
export async function checkTargetResolves(url: URL, policy: TargetPolicy): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return;
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAll(host);
  } catch {
    throw new TargetRefused(`url: ${host} does not resolve`);
  }
  if (!policy.allowPrivate && addresses.some((entry) => !isPublicAddress(entry.address))) {
    throw new TargetRefused(
      `url: ${host} resolves to a private, loopback or link-local address (such targets need ${PRIVATE_TARGETS_SETTING})`,
    );
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for sockets: resolves once, refuses the connection if any address is not public, and
 * hands the socket the address it checked.
 */
export function safeLookup(policy: TargetPolicy) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    dnsLookup(hostname, { all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const chosen = addresses[0];
      if (!chosen) return callback(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }), '');
      if (!policy.allowPrivate && addresses.some((entry) => !isPublicAddress(entry.address))) {
        const refused = new Error(`${hostname} resolves to a non-public address (such targets need ${PRIVATE_TARGETS_SETTING})`);
        return callback(Object.assign(refused, { code: 'EREFUSED_TARGET' }), '');
      }
      if (options.all) callback(null, [chosen]);
      else callback(null, chosen.address, chosen.family);
    });
  };
}
