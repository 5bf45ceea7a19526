import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import type { Mode } from '../auth/principal.ts';

/**
 * Where webhooks may be sent (no SSRF). Live mode: `https://` to a host whose every address is
 * public. Test mode also accepts exactly `localhost`, `127.0.0.1` and `[::1]` (http or https) so
 * a developer can receive on their laptop; any other host follows the live rules, so a test key
 * cannot reach a private network either. Names are resolved at registration and again at every
 * delivery (see `guardedLookup`), because DNS can change in between.
 */

const forbidden = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16],
  ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16],
  ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) forbidden.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
  ['2001:db8::', 32], ['100::', 64], ['2001::', 32], ['2002::', 16],
] as const) forbidden.addSubnet(net, prefix, 'ipv6');

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/** IPv4 hidden in an IPv6 address (mapped ::ffff:a.b.c.d, or NAT64 64:ff9b::/96), as dotted IPv4. */
function embeddedIpv4(address: string): string | undefined {
  const m = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!m) return undefined;
  if (m[1]) return m[1];
  const hi = parseInt(m[2], 16);
  const lo = parseInt(m[3], 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Why an address may not receive webhooks, or undefined when it may. */
export function forbiddenAddress(address: string): string | undefined {
  const family = isIP(address);
  // A noun phrase, so callers can write "points at …", "resolves to …" or "refused: …".
  if (family === 0) return `${address}, which is not an IP address`;
  const v4 = family === 6 ? embeddedIpv4(address) : address;
  const blocked = v4 ? forbidden.check(v4, 'ipv4') : forbidden.check(address, 'ipv6');
  return blocked ? `${address}, a private, loopback, link-local or reserved address` : undefined;
}

export type Lookup = (host: string) => Promise<LookupAddress[]>;

export const systemLookup: Lookup = (host) =>
  new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses)));
  });

/** Names that are private by definition, refused without asking DNS. */
const privateName = (host: string) =>
  host === 'localhost' || /\.(localhost|local|internal|home\.arpa)\.?$/.test(host) || host === 'metadata' || !host.includes('.');

export interface UrlVerdict {
  ok: boolean;
  reason?: string;
}

/** True when test mode's loopback exception covers this URL (and this server allows it: WEBHOOK_ALLOW_LOOPBACK). */
export function isDevLoopback(url: URL, mode: Mode, allowLoopback: boolean): boolean {
  return allowLoopback && mode === 'test' && loopbackHosts.has(url.hostname);
}

/**
 * The registration check: shape, scheme and (for names) what DNS says now. A name that does not
 * resolve yet is accepted (DNS may be set up after the endpoint); delivery checks it again.
 */
export async function checkEndpointUrl(raw: string, mode: Mode, lookup: Lookup = systemLookup, lookupTimeoutMs = 3000, allowLoopback = false): Promise<UrlVerdict> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'is not a valid absolute URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: 'must start with https://' };
  if (isDevLoopback(url, mode, allowLoopback)) return { ok: true };
  if (mode === 'test' && loopbackHosts.has(url.hostname)) {
    return { ok: false, reason: 'is a loopback address, which this server does not deliver to: loopback receivers are allowed in embedded mode, or with WEBHOOK_ALLOW_LOOPBACK=true (a development setting)' };
  }
  if (url.protocol !== 'https:') {
    return {
      ok: false,
      reason: mode === 'live' || !allowLoopback
        ? `must start with https://${mode === 'live' ? ' in live mode' : ''}`
        : 'must start with https:// (test mode also accepts http://localhost, http://127.0.0.1 and http://[::1])',
    };
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    const why = forbiddenAddress(host);
    return why ? { ok: false, reason: `points at ${why}` } : { ok: true };
  }
  if (privateName(host.toLowerCase())) return { ok: false, reason: `points at ${host}, a private host name` };
  let addresses: LookupAddress[];
  try {
    addresses = await Promise.race([
      lookup(host),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), lookupTimeoutMs).unref()),
    ]);
  } catch {
    return { ok: true };
  }
  for (const a of addresses) {
    const why = forbiddenAddress(a.address);
    if (why) return { ok: false, reason: `resolves to ${why}` };
  }
  return { ok: true };
}

export class ForbiddenTargetError extends Error {
  readonly code = 'EFORBIDDENTARGET';
}

/**
 * A `lookup` for http.request that refuses private addresses. The connection is made to the
 * address checked here, so a name cannot pass the check and then resolve elsewhere (rebinding).
 */
export function guardedLookup(lookup: Lookup, allowLoopback: boolean) {
  return (
    host: string,
    options: { all?: boolean },
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    lookup(host).then((addresses) => {
      for (const a of addresses) {
        const why = forbiddenAddress(a.address);
        const loopback = allowLoopback && (a.address === '::1' || a.address.startsWith('127.'));
        if (why && !loopback) throw new ForbiddenTargetError(`refused: ${host} resolves to ${why}`);
      }
      if (!addresses.length) throw new Error(`${host} has no addresses`);
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    }).catch((err: NodeJS.ErrnoException) => callback(err, []));
  };
}
