// Which addresses door probes may connect to (DOORWATCH_PROBE_ALLOW): the judgement of one
// address, and the message an operator can act on. Pure; resolving names is resolve-target.ts.
import type { AddressClass, AllowableAddressClass, ProbeRefusal } from '@/lib/contract/probe-result';
import { classifyAddress, isMetadataName } from './address-class';
import { ProbeTargetError } from './probe-target';

export type AddressPolicy = readonly AllowableAddressClass[];

/** The URL's host without IPv6 brackets: what a resolver or the classifier takes. */
export const bareHost = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

function isAllowed(cls: AddressClass, allow: AddressPolicy): boolean {
  return cls !== 'reserved' && (allow as readonly string[]).includes(cls);
}

/** The refusal for `address` reached through `host`, or null when the policy allows it. */
export function refusalFor(host: string, address: string, allow: AddressPolicy): ProbeRefusal | null {
  // A metadata name is refused as metadata whatever it resolves to (a resolver may be told otherwise).
  const cls = isMetadataName(host) ? 'metadata' : (classifyAddress(address) ?? 'reserved');
  return isAllowed(cls, allow) ? null : { code: 'probe_target_forbidden', host, address, addressClass: cls };
}

const LABEL: Record<AddressClass, string> = {
  public: 'a public',
  private: 'a private-network',
  loopback: 'a loopback (this machine)',
  'link-local': 'a link-local',
  metadata: 'a cloud instance-metadata',
  reserved: 'a reserved (multicast, broadcast or tunnel)',
};

/** For a person: which address, its class, and the setting that would allow it. */
export function refusalMessage(r: ProbeRefusal, allow: AddressPolicy): string {
  const what = r.host === r.address ? `"${r.address}" is` : `"${r.host}" resolves to ${r.address},`;
  const base = `${what} ${LABEL[r.addressClass]} address`;
  if (r.addressClass === 'reserved') return `${base}: door probes never connect to such an address`;
  const caution =
    r.addressClass === 'metadata' ? ' (cloud credentials are served there: allow it only if that endpoint really is the target)' : '';
  return `${base}, which door probes may not reach: DOORWATCH_PROBE_ALLOW is "${allow.join(',')}"; add ${r.addressClass} to it to probe this target${caution}`;
}

/**
 * Registration's check: a target whose host is a literal address (or a metadata name) the policy
 * refuses is refused now. A name is judged at each run, by what it resolves to then.
 */
export function checkTargetAddress(url: URL, allow: AddressPolicy): void {
  const host = bareHost(url);
  if (classifyAddress(host) === null && !isMetadataName(host)) return;
  const refusal = refusalFor(host, host, allow);
  if (refusal) throw new ProbeTargetError('probe_target_forbidden', refusalMessage(refusal, allow));
}
