// Where an IP address leads, for the door probes' address policy (DOORWATCH_PROBE_ALLOW). Pure:
// no I/O. The probe classifies what it will connect to — every address a name resolves to, or
// the literal — so spelling tricks cannot pass: the WHATWG URL parser already turns
// http://2130706433/, http://0x7f.1/ and http://0177.0.0.1/ into 127.0.0.1, and an IPv6 address
// that carries an IPv4 one (::ffff:127.0.0.1, NAT64 64:ff9b::7f00:1, 6to4 2002:7f00:1::) is
// judged by the IPv4 address it reaches.
import { isIP } from 'node:net';
import type { AddressClass } from '@/lib/contract/probe-result';

/** Cloud instance-metadata endpoints (credentials live there): a class of their own, never implied by link-local or private. */
const METADATA_V4 = new Set([
  '169.254.169.254', // AWS, GCP, Azure, OCI, OpenStack, DigitalOcean, Hetzner…
  '169.254.170.2', // AWS ECS task credentials
  '169.254.170.23', // AWS EKS Pod Identity
  '169.254.0.23', // Tencent Cloud
  '100.100.100.200', // Alibaba Cloud
  '168.63.129.16', // Azure WireServer (a public-looking address)
  '192.0.0.192', // Oracle Cloud (classic)
]);
const METADATA_V6 = ['fd00:ec2::254', 'fd00:ec2::23'].map((a) => parseIpv6(a)!.join(':'));

/** Names that are metadata endpoints whatever a resolver says (compared lower-case, without a final dot). */
const METADATA_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
  'metadata.azure.internal',
]);

export function isMetadataName(host: string): boolean {
  return METADATA_NAMES.has(host.toLowerCase().replace(/\.$/, ''));
}

/** `a.b.c.d` (strict decimal) → its four octets; anything else → null. */
function parseIpv4(s: string): number[] | null {
  const parts = s.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p))) return null;
  const octets = parts.map(Number);
  return octets.every((o) => o <= 255) ? octets : null;
}

/** An IPv6 address (compressed, with an IPv4 tail or a zone) → its eight 16-bit groups; else null. */
function parseIpv6(raw: string): number[] | null {
  let s = raw.replace(/%.*$/, '').toLowerCase();
  const tail = /:(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (tail) {
    const v4 = parseIpv4(tail[1]);
    if (!v4) return null;
    s = `${s.slice(0, tail.index)}:${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const groups = (h: string) => (h === '' ? [] : h.split(':'));
  const head = groups(halves[0]);
  const rest = halves.length === 2 ? groups(halves[1]) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return all.map((g) => parseInt(g, 16));
}

function inV4(o: number[], net: [number, number, number, number], bits: number): boolean {
  const value = (x: number[]) => ((x[0] << 24) | (x[1] << 16) | (x[2] << 8) | x[3]) >>> 0;
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return (value(o) & mask) >>> 0 === (value(net) & mask) >>> 0;
}

function classifyIpv4(o: number[]): AddressClass {
  if (METADATA_V4.has(o.join('.'))) return 'metadata';
  // 0.0.0.0/8 "this host": connecting to 0.0.0.0 reaches the local host on Linux.
  if (o[0] === 0 || o[0] === 127) return 'loopback';
  if (o[0] === 169 && o[1] === 254) return 'link-local';
  if (o[0] >= 224) return 'reserved'; // multicast 224/4, reserved 240/4, broadcast
  const privateNets: Array<[[number, number, number, number], number]> = [
    [[10, 0, 0, 0], 8],
    [[172, 16, 0, 0], 12],
    [[192, 168, 0, 0], 16],
    [[100, 64, 0, 0], 10], // carrier-grade NAT (RFC 6598), also Tailscale
    [[198, 18, 0, 0], 15], // benchmarking
    [[192, 0, 0, 0], 24], // IETF protocol assignments
    // Documentation ranges: never routed on the internet, so only something local can answer.
    [[192, 0, 2, 0], 24],
    [[198, 51, 100, 0], 24],
    [[203, 0, 113, 0], 24],
  ];
  return privateNets.some(([net, bits]) => inV4(o, net, bits)) ? 'private' : 'public';
}

const v4Of = (hi: number, lo: number) => [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff];

function classifyIpv6(g: number[]): AddressClass {
  if (METADATA_V6.includes(g.join(':'))) return 'metadata';
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  // :: (unspecified: reaches the local host like 0.0.0.0) and ::1.
  if (zeros(0, 7) && g[7] <= 1) return 'loopback';
  // IPv4-mapped ::ffff:a.b.c.d and the old IPv4-compatible ::a.b.c.d: the IPv4 address.
  if (zeros(0, 5) && (g[5] === 0xffff || g[5] === 0)) return classifyIpv4(v4Of(g[6], g[7]));
  // NAT64 well-known prefix 64:ff9b::/96: a translator connects to the IPv4 address.
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return classifyIpv4(v4Of(g[6], g[7]));
  // Local-use NAT64 64:ff9b:1::/48: a local translator; never less than private.
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) {
    const inner = classifyIpv4(v4Of(g[6], g[7]));
    return inner === 'public' ? 'private' : inner;
  }
  if (g[0] === 0x2002) return classifyIpv4(v4Of(g[1], g[2])); // 6to4
  if (g[0] === 0x2001 && g[1] === 0) return 'reserved'; // Teredo: tunnels to an obfuscated IPv4 address
  if (g[0] === 0x100 && zeros(1, 4)) return 'reserved'; // discard-only 100::/64
  if (g[0] >= 0xff00) return 'reserved'; // multicast
  if ((g[0] & 0xffc0) === 0xfe80) return 'link-local';
  if ((g[0] & 0xfe00) === 0xfc00 || (g[0] & 0xffc0) === 0xfec0) return 'private'; // ULA fc00::/7, old site-local
  if (g[0] === 0x2001 && g[1] === 0xdb8) return 'private'; // documentation
  return 'public';
}

/** The class of an IP address (IPv4 dotted decimal or IPv6, with or without brackets); null if it is not one. */
export function classifyAddress(address: string): AddressClass | null {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (isIP(bare.replace(/%.*$/, '')) === 4) {
    const v4 = parseIpv4(bare);
    return v4 && classifyIpv4(v4);
  }
  const v6 = parseIpv6(bare);
  return v6 && classifyIpv6(v6);
}
