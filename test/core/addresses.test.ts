import { describe, expect, it } from 'vitest';
import { addressMatcher, isAddressOrRange, isLoopbackAddress, isLoopbackHost } from '../../src/core/addresses.js';

describe('loopback', () => {
  it('is 127.0.0.0/8 and ::1, IPv4 also mapped into IPv6', () => {
    for (const address of ['127.0.0.1', '127.255.0.2', '::1', '::ffff:127.0.0.1', '0:0:0:0:0:0:0:1'])
      expect(isLoopbackAddress(address), address).toBe(true);
    for (const address of ['128.0.0.1', '10.0.0.1', '::2', '::ffff:10.0.0.1', 'fe80::1', '', undefined])
      expect(isLoopbackAddress(address), String(address)).toBe(false);
  });

  it("as a URL's host is also localhost and [::1]", () => {
    for (const host of ['localhost', 'LOCALHOST', '127.0.0.1', '[::1]']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['hub.invalid', 'localhost.example.com', '127.0.0.1.nip.io', '[::2]', '10.1.2.3'])
      expect(isLoopbackHost(host), host).toBe(false);
  });
});

describe('address lists', () => {
  it('take addresses and CIDR ranges of either family, and nothing else', () => {
    for (const entry of ['10.0.0.5', '10.0.0.0/8', '::1', 'fd00::/8', '0.0.0.0/0']) expect(isAddressOrRange(entry), entry).toBe(true);
    for (const entry of ['10.0.0.0/33', '::/129', 'host.lan', '10.0.0.0/', '10.0.0.0/8/1', '10.0.0.0/x', ''])
      expect(isAddressOrRange(entry), entry).toBe(false);
  });

  it('match an address inside a range or equal to an entry, IPv4 also when mapped into IPv6', () => {
    const open = addressMatcher(['127.0.0.0/8', '::1', '10.20.0.5']);
    for (const address of ['127.0.0.1', '::ffff:127.0.0.9', '::1', '10.20.0.5']) expect(open(address), address).toBe(true);
    for (const address of ['10.20.0.6', '192.168.1.1', '::2', undefined]) expect(open(address), String(address)).toBe(false);
    expect(addressMatcher([])('127.0.0.1')).toBe(false);
  });
});
