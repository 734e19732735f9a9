/**
 * Which addresses are this machine's own (loopback), and lists of addresses and CIDR ranges
 * a config names: what decides whether the hub may be reached over plain http and who reads
 * a node's operations pages without a credential.
 */
import { BlockList, isIP } from 'node:net';

/** An IPv4 address a dual-stack socket reports as `::ffff:a.b.c.d`, as its plain form. */
function plainAddress(address: string): string {
  const mapped = address.toLowerCase().startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return isIP(mapped) === 4 ? mapped : address;
}

/** 127.0.0.0/8 and ::1, IPv4 ones also when mapped into IPv6. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const plain = plainAddress(address);
  if (isIP(plain) === 4) return plain.startsWith('127.');
  return isIP(plain) === 6 && LOOPBACK_V6.check(plain, 'ipv6');
}

const LOOPBACK_V6 = new BlockList();
LOOPBACK_V6.addAddress('::1', 'ipv6');

/** A URL's host on this machine: `localhost`, a loopback address, or `[::1]` as a URL writes it. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return host === 'localhost' || isLoopbackAddress(host);
}

/** An address (`10.0.0.5`, `::1`) or a CIDR range (`127.0.0.0/8`, `fd00::/8`). */
export function isAddressOrRange(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  if (rest.length > 0 || !address || !isIP(address)) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits <= (isIP(address) === 4 ? 32 : 128);
}

/** Whether an address is one of `entries` (each valid for isAddressOrRange). */
export function addressMatcher(entries: readonly string[]): (address: string | undefined) => boolean {
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split('/') as [string, string | undefined];
    const type = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return (address) => {
    if (!address) return false;
    const plain = plainAddress(address);
    const type = isIP(plain);
    return type !== 0 && list.check(plain, type === 4 ? 'ipv4' : 'ipv6');
  };
}
