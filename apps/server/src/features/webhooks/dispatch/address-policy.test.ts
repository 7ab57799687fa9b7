import { describe, expect, it } from 'vitest';
import ipaddr from 'ipaddr.js';
import { AddressRefusedError, checkedAddresses, RANGE_WORDS, refusedAddressRange, refusedHostName } from './address-policy.js';

describe('which addresses webhooks may reach', () => {
  it('refuses every non-public range, IPv4-mapped forms judged by the address they carry', () => {
    const refused: [string, string][] = [
      ['127.0.0.1', 'loopback'],
      ['10.0.0.1', 'private'],
      ['172.16.5.4', 'private'],
      ['192.168.1.1', 'private'],
      ['169.254.169.254', 'linkLocal'],
      ['100.64.0.1', 'carrierGradeNat'],
      ['0.0.0.0', 'unspecified'],
      ['224.0.0.1', 'multicast'],
      ['255.255.255.255', 'broadcast'],
      ['240.0.0.1', 'reserved'],
      ['::1', 'loopback'],
      ['::', 'unspecified'],
      ['fe80::1', 'linkLocal'],
      ['fd00:ec2::254', 'uniqueLocal'],
      ['fc00::1', 'uniqueLocal'],
      ['ff02::1', 'multicast'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:10.1.2.3', 'private'],
      ['64:ff9b::a00:1', 'rfc6052'],
      ['2002:a00::1', '6to4'],
      ['2001:db8::1', 'reserved'],
    ];
    for (const [address, range] of refused) expect([address, refusedAddressRange(address)]).toEqual([address, range]);
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:2800:220:1:248:1893:25c8:1946', '::ffff:93.184.216.34']) {
      expect([address, refusedAddressRange(address)]).toEqual([address, null]);
    }
  });

  it('refuses loopback and metadata names before resolving them', () => {
    for (const name of ['localhost', 'LOCALHOST.', 'api.localhost', 'metadata.google.internal', 'metadata', 'instance-data.ec2.internal']) expect(refusedHostName(name)).not.toBeNull();
    expect(refusedHostName('hooks.example.com')).toBeNull();
  });

  it('a name passes only when every address it resolves to is public', async () => {
    const resolver = async (host: string) =>
      host === 'mixed.example'
        ? [
            { address: '93.184.216.34', family: 4 },
            { address: 'fd12::1', family: 6 },
          ]
        : [{ address: '93.184.216.34', family: 4 }];
    await expect(checkedAddresses('mixed.example', resolver)).rejects.toThrow(new AddressRefusedError('mixed.example resolves to fd12::1, a unique-local address, which webhooks may not reach'));
    await expect(checkedAddresses('hooks.example', resolver)).resolves.toEqual([{ address: '93.184.216.34', family: 4 }]);
    await expect(checkedAddresses('[::1]', resolver)).rejects.toThrow('::1 is a loopback address');
    await expect(checkedAddresses('169.254.169.254', resolver)).rejects.toThrow(new AddressRefusedError('169.254.169.254 is a link-local address, which webhooks may not reach'));
    await expect(checkedAddresses('0.0.0.0', resolver)).rejects.toThrow(new AddressRefusedError('0.0.0.0 is an unspecified address, which webhooks may not reach'));
    await expect(checkedAddresses('100.64.0.1', resolver)).rejects.toThrow(new AddressRefusedError('100.64.0.1 is a CGNAT address, which webhooks may not reach'));
    await expect(checkedAddresses('64:ff9b::a00:1', resolver)).rejects.toThrow(new AddressRefusedError('64:ff9b::a00:1 is a NAT64 address, which webhooks may not reach'));
    await expect(checkedAddresses('empty.example', async () => [])).rejects.toThrow('empty.example resolves to no address');
  });

  it('has plain words, with their article, for every range ipaddr.js names (no ipaddr.js identifier reaches a refusal)', () => {
    // ipaddr.js's own table of range names (not in its typings): a name a new version adds fails here.
    const rangesOf = (proto: object) => Object.keys((proto as { SpecialRanges: Record<string, unknown> }).SpecialRanges);
    const names = [...rangesOf(ipaddr.IPv4.prototype), ...rangesOf(ipaddr.IPv6.prototype)];
    expect(names).toContain('rfc6052');
    for (const name of names) {
      expect([name, RANGE_WORDS[name]]).toEqual([name, expect.stringMatching(/^an? [\w -]+ address$/)]);
      expect(RANGE_WORDS[name]).not.toMatch(/[a-z][A-Z]/);
    }
  });
});
