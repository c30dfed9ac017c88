// The door probes' address classes (lib/probes/address-class.ts) and policy (address-policy.ts):
// a table of addresses including the odd spellings a URL may carry, properties over every IPv4
// address and IPv6 spelling, the DOORWATCH_PROBE_ALLOW setting, and registration's check.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { classifyAddress } from '@/lib/probes/address-class';
import { checkTargetAddress, refusalFor, refusalMessage } from '@/lib/probes/address-policy';
import { parseProbeUrl } from '@/lib/probes/probe-target';
import { readSettings, SettingsError } from '@/lib/config/settings';
import type { AddressClass } from '@/lib/contract/probe-result';

const TABLE: Array<[string, AddressClass]> = [
  // loopback, and "this host" (connecting to 0.0.0.0 or :: reaches the local host)
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['0.0.0.0', 'loopback'],
  ['0.1.2.3', 'loopback'],
  ['::1', 'loopback'],
  ['::', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['[::1]', 'loopback'],
  // IPv4 inside IPv6: judged by the IPv4 address reached
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['0:0:0:0:0:ffff:7f00:0001', 'loopback'],
  ['::ffff:10.1.2.3', 'private'],
  ['::ffff:169.254.169.254', 'metadata'],
  ['::ffff:8.8.8.8', 'public'],
  ['::127.0.0.1', 'loopback'], // deprecated IPv4-compatible
  ['64:ff9b::7f00:1', 'loopback'], // NAT64 well-known prefix
  ['64:ff9b::169.254.169.254', 'metadata'],
  ['64:ff9b::8.8.8.8', 'public'],
  ['64:ff9b:1::8.8.8.8', 'private'], // local-use NAT64: never less than private
  ['64:ff9b:1::127.0.0.1', 'loopback'],
  ['2002:7f00:1::', 'loopback'], // 6to4 of 127.0.0.1
  ['2002:0808:0808::1', 'public'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'], // Teredo
  // private networks
  ['10.0.0.1', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['172.32.0.1', 'public'],
  ['172.15.255.255', 'public'],
  ['192.168.1.1', 'private'],
  ['100.64.0.1', 'private'], // carrier-grade NAT
  ['100.127.255.255', 'private'],
  ['100.128.0.1', 'public'],
  ['198.18.0.1', 'private'],
  ['192.0.2.2', 'private'], // documentation: only something local answers there
  ['fd00::2', 'private'],
  ['fc00::1', 'private'],
  ['fec0::1', 'private'],
  ['2001:db8::1', 'private'],
  // link-local
  ['169.254.0.1', 'link-local'],
  ['169.254.169.253', 'link-local'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['febf::1', 'link-local'],
  // metadata: its own class, not link-local, not private, not public
  ['169.254.169.254', 'metadata'],
  ['169.254.170.2', 'metadata'],
  ['169.254.170.23', 'metadata'],
  ['169.254.0.23', 'metadata'],
  ['100.100.100.200', 'metadata'],
  ['168.63.129.16', 'metadata'],
  ['192.0.0.192', 'metadata'],
  ['fd00:ec2::254', 'metadata'],
  ['fd00:ec2:0:0:0:0:0:254', 'metadata'],
  ['fd00:ec2::23', 'metadata'],
  // reserved: never probed
  ['224.0.0.1', 'reserved'],
  ['239.255.255.250', 'reserved'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'reserved'],
  ['ff02::1', 'reserved'],
  ['100::1', 'reserved'],
  // public
  ['8.8.8.8', 'public'],
  ['1.1.1.1', 'public'],
  ['93.184.216.34', 'public'],
  ['2606:4700:4700::1111', 'public'],
  ['2a00:1450:4001:80b::200e', 'public'],
];

describe('classifyAddress', () => {
  for (const [address, expected] of TABLE) {
    test(`${address} is ${expected}`, () => assert.equal(classifyAddress(address), expected));
  }

  test('names and malformed addresses are not addresses', () => {
    for (const s of [
      'localhost',
      'example.com',
      '1.2.3',
      '1.2.3.4.5',
      '256.1.1.1',
      '01.2.3.4',
      '0x7f.0.0.1',
      ':::1',
      '1::2::3',
      'g::1',
      '',
    ])
      assert.equal(classifyAddress(s), null, s);
  });

  // The WHATWG URL parser turns every IPv4 spelling into dotted decimal; the probe classifies that.
  const SPELLINGS: Array<[string, AddressClass]> = [
    ['http://2130706433/mcp', 'loopback'],
    ['http://0x7f000001/mcp', 'loopback'],
    ['http://0x7f.1/mcp', 'loopback'],
    ['http://0177.0.0.1/mcp', 'loopback'],
    ['http://127.1/mcp', 'loopback'],
    ['http://127.0.0.1./mcp', 'loopback'],
    ['http://0/mcp', 'loopback'],
    ['http://[::ffff:127.0.0.1]/mcp', 'loopback'],
    ['http://[0:0:0:0:0:ffff:127.0.0.1]/mcp', 'loopback'],
    ['http://0xa9fea9fe/mcp', 'metadata'],
    ['http://2852039166/mcp', 'metadata'],
    ['http://169.254.43518/mcp', 'metadata'],
    ['http://[fd00:ec2::254]/mcp', 'metadata'],
    ['http://012.1/mcp', 'private'],
  ];
  for (const [raw, expected] of SPELLINGS) {
    test(`${raw} reaches a ${expected} address`, () => {
      assert.equal(classifyAddress(parseProbeUrl(raw).hostname), expected);
      // …and registration refuses it while the class is not allowed
      assert.throws(() => checkTargetAddress(parseProbeUrl(raw), ['public']), { code: 'probe_target_forbidden' });
    });
  }
});

const octets = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255));
const hex = (hi: number, lo: number) => ((hi << 8) | lo).toString(16);

describe('properties', () => {
  test('an IPv4 address is classified the same however a URL or IPv6 spells it', () => {
    fc.assert(
      fc.property(octets, ([a, b, c, d]) => {
        const dotted = `${a}.${b}.${c}.${d}`;
        const cls = classifyAddress(dotted);
        const n = ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
        const spelled = [`http://${n}/`, `http://0x${n.toString(16)}/`, `http://0${a.toString(8)}.${b}.0x${c.toString(16)}.${d}/`];
        for (const url of spelled) assert.equal(classifyAddress(new URL(url).hostname), cls, url);
        for (const v6 of [`::ffff:${dotted}`, `::ffff:${hex(a, b)}:${hex(c, d)}`, `[::ffff:${dotted}]`])
          assert.equal(classifyAddress(v6), cls, v6);
        // Through NAT64 a public address stays public, anything local stays what it is.
        assert.equal(classifyAddress(`64:ff9b::${dotted}`), cls);
      }),
      { numRuns: 2_000 },
    );
  });

  test('an IPv6 address is classified the same compressed (as a URL writes it) and in full', () => {
    const group = fc.oneof(fc.constant(0), fc.constant(0xffff), fc.integer({ min: 0, max: 0xffff }));
    const prefix = fc.constantFrom(null, 0, 0xfe80, 0xfc00, 0xfd00, 0xff02, 0x2002, 0x64, 0x2001);
    fc.assert(
      fc.property(prefix, fc.array(group, { minLength: 8, maxLength: 8 }), (first, groups) => {
        if (first !== null) groups[0] = first;
        const full = groups.map((g) => g.toString(16).padStart(4, '0')).join(':');
        const compressed = new URL(`http://[${full}]/`).hostname;
        const cls = classifyAddress(full);
        assert.notEqual(cls, null);
        assert.equal(classifyAddress(compressed), cls, `${full} vs ${compressed}`);
      }),
      { numRuns: 2_000 },
    );
  });

  test('metadata is refused whatever else is allowed unless named', () => {
    const others = fc.subarray(['public', 'private', 'loopback', 'link-local'] as const);
    const metadata = fc.constantFrom('169.254.169.254', 'fd00:ec2::254', '::ffff:169.254.169.254', '100.100.100.200');
    fc.assert(
      fc.property(others, metadata, (allow, address) => {
        assert.equal(refusalFor(address, address, allow)?.addressClass, 'metadata');
        assert.equal(refusalFor(address, address, [...allow, 'metadata']), null);
      }),
    );
  });
});

describe('policy', () => {
  test('a metadata name is metadata whatever it resolves to', () => {
    assert.equal(refusalFor('metadata.google.internal', '10.0.0.5', ['public', 'private'])?.addressClass, 'metadata');
    assert.equal(refusalFor('Metadata.Google.Internal.', '8.8.8.8', ['public'])?.addressClass, 'metadata');
    assert.throws(() => checkTargetAddress(new URL('http://metadata.google.internal/computeMetadata/v1/'), ['public', 'private']), {
      code: 'probe_target_forbidden',
      message: /cloud instance-metadata address.*add metadata to it/,
    });
  });

  test('reserved addresses are refused whatever is allowed', () => {
    const all = ['public', 'private', 'loopback', 'link-local', 'metadata'] as const;
    const refusal = refusalFor('224.0.0.1', '224.0.0.1', all);
    assert.equal(refusal?.addressClass, 'reserved');
    assert.match(refusalMessage(refusal!, all), /never connect/);
  });

  test('the message names the host, the address, its class and the setting to change', () => {
    const r = refusalFor('localhost', '127.0.0.1', ['public', 'private'])!;
    assert.deepEqual(r, { code: 'probe_target_forbidden', host: 'localhost', address: '127.0.0.1', addressClass: 'loopback' });
    assert.equal(
      refusalMessage(r, ['public', 'private']),
      '"localhost" resolves to 127.0.0.1, a loopback (this machine) address, which door probes may not reach: DOORWATCH_PROBE_ALLOW is "public,private"; add loopback to it to probe this target',
    );
  });

  test('registration judges literals only; names are judged at each run', () => {
    assert.doesNotThrow(() => checkTargetAddress(new URL('http://localhost:3000/mcp'), ['public']));
    assert.doesNotThrow(() => checkTargetAddress(new URL('https://8.8.8.8/mcp'), ['public']));
    assert.doesNotThrow(() => checkTargetAddress(new URL('http://127.0.0.1/mcp'), ['public', 'loopback']));
    assert.throws(() => checkTargetAddress(new URL('http://[::1]:8080/mcp'), ['public', 'private']), {
      code: 'probe_target_forbidden',
      message: /"::1" is a loopback \(this machine\) address/,
    });
  });
});

describe('DOORWATCH_PROBE_ALLOW', () => {
  test('defaults to public,private; a list is read in any order, case and spacing', () => {
    assert.deepEqual(readSettings({}).DOORWATCH_PROBE_ALLOW, ['public', 'private']);
    assert.deepEqual(readSettings({ DOORWATCH_PROBE_ALLOW: '  ' }).DOORWATCH_PROBE_ALLOW, ['public', 'private']);
    assert.deepEqual(readSettings({ DOORWATCH_PROBE_ALLOW: ' Loopback , public,loopback' }).DOORWATCH_PROBE_ALLOW, ['public', 'loopback']);
    assert.deepEqual(readSettings({ DOORWATCH_PROBE_ALLOW: 'metadata' }).DOORWATCH_PROBE_ALLOW, ['metadata']);
  });

  test('an unknown class, reserved, or an empty list stops the start with one line', () => {
    for (const [raw, message] of [
      ['public,intranet', '"intranet" is not an address class'],
      ['reserved', '"reserved" is not an address class'],
      ['linklocal', '"linklocal" is not an address class'],
      [',', 'names no address class'],
    ]) {
      assert.throws(
        () => readSettings({ DOORWATCH_PROBE_ALLOW: raw }),
        (err: unknown) =>
          err instanceof SettingsError &&
          err.problems.length === 1 &&
          err.problems[0].startsWith(
            `DOORWATCH_PROBE_ALLOW: ${message}; use a comma-separated list of public, private, loopback, link-local, metadata`,
          ),
      );
    }
  });
});
