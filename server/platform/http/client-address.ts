import net from 'node:net';

/**
 * The key a request's address is counted under by per-address limits and budgets:
 * an IPv4 address as it is (an IPv4-mapped IPv6 address, ::ffff:a.b.c.d, as a.b.c.d), an
 * IPv6 address as its /64 prefix, since one host is normally given a whole /64 and can
 * take any address in it. Compressed and full spellings of one address give one key; a
 * zone id (fe80::1%eth0) is dropped. Logs and session records keep the full address.
 */
export function clientKey(address: string | undefined): string {
  const raw = (address ?? '').trim();
  const bare = raw.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  if (net.isIPv4(bare)) return bare;
  if (!net.isIPv6(bare)) return raw.toLowerCase() || 'unknown';
  const groups = ipv6Groups(bare);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (no zone id), `::` and a dotted tail expanded. */
function ipv6Groups(address: string): number[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (part: string | undefined) => (part ? part.split(':').map((h) => Number.parseInt(h, 16)) : []);
  const [head, tail] = text.split('::');
  if (tail === undefined) return parse(head);
  const before = parse(head);
  const after = parse(tail);
  return [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
}
