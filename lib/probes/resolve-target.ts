// DNS pinning for one probe step: the target's host is resolved once, every address it resolves
// to is checked against DOORWATCH_PROBE_ALLOW, and the step's requests and WebSocket handshakes
// connect only to those checked addresses (a `lookup` that answers from them), never re-resolving:
// a name that answers a public address to the check and 127.0.0.1 to the connection (DNS
// rebinding) reaches nothing. The URL keeps its name, so the Host header and TLS SNI are unchanged.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import type { ProbeRefusal } from '@/lib/contract/probe-result';
import { classifyAddress } from './address-class';
import { bareHost, refusalFor, refusalMessage, type AddressPolicy } from './address-policy';

/** Resolves a name to all its addresses (node:dns lookup, the system resolver, as connections use). */
export type Resolver = (host: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) => dnsLookup(host, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));

export type Resolution =
  | { kind: 'pinned'; lookup: LookupFunction; detail: string }
  | { kind: 'refused'; refusal: ProbeRefusal; detail: string }
  | { kind: 'error'; detail: string };

export async function resolveTarget(
  url: URL,
  allow: AddressPolicy,
  timeoutMs: number,
  resolver: Resolver = systemResolver,
): Promise<Resolution> {
  const host = bareHost(url);
  let addresses: LookupAddress[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    let timer: NodeJS.Timeout | undefined;
    try {
      addresses = await Promise.race([
        resolver(host),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${Math.round(timeoutMs)} ms`)), timeoutMs);
        }),
      ]);
    } catch (err) {
      return { kind: 'error', detail: `resolving ${host}: ${err instanceof Error ? err.message : String(err)}` };
    } finally {
      clearTimeout(timer);
    }
    if (addresses.length === 0) return { kind: 'error', detail: `resolving ${host}: no addresses` };
  }
  // Every address: a name answering one allowed and one refused address is refused.
  for (const { address } of addresses) {
    const refusal = refusalFor(host, address, allow);
    if (refusal) return { kind: 'refused', refusal, detail: refusalMessage(refusal, allow) };
  }
  const list = addresses.map((a) => `${a.address} (${classifyAddress(a.address)})`).join(', ');
  const detail = `${isIP(host) ? list : `dns ${host} → ${list}`}: allowed by DOORWATCH_PROBE_ALLOW; the step connects only there`;
  return { kind: 'pinned', lookup: pinnedLookup(host, addresses), detail };
}

/** A `lookup` for net/http/ws that answers `host` from the checked addresses and refuses any other name. */
function pinnedLookup(host: string, addresses: readonly LookupAddress[]): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    const usable = addresses.filter((a) => !family || a.family === family);
    if (hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase() !== host.toLowerCase() || usable.length === 0) {
      const err: NodeJS.ErrnoException = new Error(`${hostname} is not the probed host's checked address`);
      err.code = 'ENOTFOUND';
      return callback(err, '', 0);
    }
    // With autoSelectFamily (Node's default) net asks for all and tries them in turn: all are checked.
    if (options.all)
      return callback(
        null,
        usable.map((a) => ({ ...a })),
      );
    callback(null, usable[0].address, usable[0].family);
  };
}
