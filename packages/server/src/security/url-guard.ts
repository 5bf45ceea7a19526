import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Mode } from '../auth/principal.ts';

/**
 * Where webhooks may be sent (no SSRF). Live mode: `https://` to a host whose every address is
 * public. Test mode also accepts exactly `localhost`, `127.0.0.1` and `[::1]` (http or https) so
 * a developer can receive on their laptop; any other host follows the live rules, so a test key
 * cannot reach a private network either. Names are resolved at registration and again at every
 * delivery (see `guardedLookup`), because DNS can change in between.
 */

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why an address may not receive webhooks, or undefined when it may. ipaddr.js classifies it
 * (private, loopback, link-local, carrier-grade NAT, multicast, reserved, documentation, 6to4,
 * Teredo, NAT64 …); only plain public unicast passes. IPv4-mapped IPv6 is judged as the IPv4 it
 * carries, and the deprecated IPv4-compatible form (::a.b.c.d, ::/96) never passes.
 */
export function forbiddenAddress(address: string): string | undefined {
  // A noun phrase, so callers can write "points at …", "resolves to …" or "refused: …".
  if (isIP(address) === 0 || !ipaddr.isValid(address)) return `${address}, which is not an IP address`;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const ipv4Compatible = parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((p) => p === 0);
  return parsed.range() !== 'unicast' || ipv4Compatible
    ? `${address}, a private, loopback, link-local or reserved address`
    : undefined;
}

/**
 * What is wrong with a URL we are to call or send people to, before anything else: not a URL,
 * control characters (a URL parser drops tabs and line breaks silently, so what is stored would not
 * be what was checked), or credentials (`user:pass@` would be sent on as Basic auth).
 */
export function urlShapeProblem(raw: string): string | undefined {
  if (/[\u0000-\u001f\u007f]/.test(raw)) return 'contains a control character (a tab or line break, say)';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a valid absolute URL';
  }
  if (url.username || url.password) return 'may not carry a user name or password (user:pass@); authenticate receivers with the signature';
  return undefined;
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
  const problem = urlShapeProblem(raw);
  if (problem) return { ok: false, reason: problem };
  const url = new URL(raw);
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
