import { isIP } from 'node:net';

/**
 * What an IP address is, as far as sending a webhook to it goes. A webhook is a request the service makes on a
 * caller's behalf, so it must not reach the service's own machine, its private network or the cloud's metadata
 * service; `public` is the only kind always allowed.
 */
export type AddressKind = 'public' | 'loopback' | 'private' | 'shared' | 'link-local' | 'metadata' | 'unspecified' | 'multicast' | 'reserved';

/** Kinds a private network may legitimately receive webhooks on: allowed only with the private-address switch. */
const PRIVATE_KINDS: ReadonlySet<AddressKind> = new Set(['loopback', 'private', 'shared', 'link-local']);

const KIND_WORDS: Record<Exclude<AddressKind, 'public'>, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  shared: 'a carrier-grade NAT address',
  'link-local': 'a link-local address',
  metadata: 'a cloud metadata address',
  unspecified: 'the unspecified address',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
};

interface Prefix {
  bytes: number[];
  bits: number;
}

interface Block extends Prefix {
  kind: AddressKind;
}

const v4 = (text: string, bits: number, kind: AddressKind): Block => ({ bytes: text.split('.').map(Number), bits, kind });
const v6 = (text: string, bits: number, kind: AddressKind): Block => ({ bytes: ipv6Bytes(text), bits, kind });

/** First match wins, so a metadata address is named before the link-local or shared block around it. */
const IPV4_BLOCKS: Block[] = [
  v4('169.254.169.254', 32, 'metadata'), // AWS, GCP, Azure, Oracle, DigitalOcean, OpenStack
  v4('169.254.170.2', 32, 'metadata'), // AWS ECS task credentials
  v4('100.100.100.200', 32, 'metadata'), // Alibaba Cloud
  v4('0.0.0.0', 8, 'unspecified'), // "this network": 0.0.0.0 connects to the local machine on Linux
  v4('10.0.0.0', 8, 'private'),
  v4('100.64.0.0', 10, 'shared'),
  v4('127.0.0.0', 8, 'loopback'),
  v4('169.254.0.0', 16, 'link-local'),
  v4('172.16.0.0', 12, 'private'),
  v4('192.0.0.0', 24, 'reserved'),
  v4('192.0.2.0', 24, 'reserved'),
  v4('192.168.0.0', 16, 'private'),
  v4('198.18.0.0', 15, 'reserved'),
  v4('198.51.100.0', 24, 'reserved'),
  v4('203.0.113.0', 24, 'reserved'),
  v4('224.0.0.0', 4, 'multicast'),
  v4('240.0.0.0', 4, 'reserved'), // includes the broadcast address 255.255.255.255
];

const IPV6_BLOCKS: Block[] = [
  v6('fd00:ec2::254', 128, 'metadata'), // AWS over IPv6
  v6('::', 128, 'unspecified'),
  v6('::1', 128, 'loopback'),
  v6('64:ff9b:1::', 48, 'private'), // local-use NAT64
  v6('::', 8, 'reserved'), // the rest of ::/8, once the IPv4 addresses embedded in it are read as such
  v6('100::', 64, 'reserved'),
  v6('2001::', 23, 'reserved'),
  v6('2001:db8::', 32, 'reserved'),
  v6('fc00::', 7, 'private'),
  v6('fe80::', 10, 'link-local'),
  v6('fec0::', 10, 'private'),
  v6('ff00::', 8, 'multicast'),
];

/** Where an IPv6 address carries an IPv4 one that a gateway or the kernel would reach instead: mapped, compatible, NAT64, 6to4. */
const IPV4_CARRIERS: { prefix: Prefix; offset: number }[] = [
  { prefix: { bytes: ipv6Bytes('::ffff:0:0'), bits: 96 }, offset: 12 },
  { prefix: { bytes: ipv6Bytes('::'), bits: 96 }, offset: 12 },
  { prefix: { bytes: ipv6Bytes('64:ff9b::'), bits: 96 }, offset: 12 },
  { prefix: { bytes: ipv6Bytes('2002::'), bits: 16 }, offset: 2 },
];

function within(bytes: number[], block: Prefix): boolean {
  for (let bit = 0; bit < block.bits; bit += 8) {
    const mask = block.bits - bit >= 8 ? 0xff : (0xff << (8 - (block.bits - bit))) & 0xff;
    if ((bytes[bit / 8] & mask) !== (block.bytes[bit / 8] & mask)) return false;
  }
  return true;
}

/** The 16 bytes of an IPv6 address in any of its written forms (compressed, with a dotted IPv4 tail, with a zone). */
function ipv6Bytes(text: string): number[] {
  let address = text.split('%')[0];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split('.').map(Number);
    address = `${address.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = address.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  return groups.flatMap((group) => {
    const value = parseInt(group, 16);
    return [value >> 8, value & 0xff];
  });
}

function kindOfIpv4(bytes: number[]): AddressKind {
  return IPV4_BLOCKS.find((block) => within(bytes, block))?.kind ?? 'public';
}

/** The kind of an IP address (IPv4 or IPv6 text); anything that is not an IP address is an error of the caller. */
export function addressKind(address: string): AddressKind {
  const family = isIP(address.split('%')[0]);
  if (family === 4) return kindOfIpv4(address.split('.').map(Number));
  if (family !== 6) throw new TypeError(`not an IP address: ${address}`);
  const bytes = ipv6Bytes(address);
  const isExact = (block: Block) => block.bits === 128 && within(bytes, block);
  const exact = IPV6_BLOCKS.find(isExact);
  if (exact) return exact.kind;
  const carrier = IPV4_CARRIERS.find(({ prefix }) => within(bytes, prefix));
  if (carrier) return kindOfIpv4(bytes.slice(carrier.offset, carrier.offset + 4));
  return IPV6_BLOCKS.find((block) => within(bytes, block))?.kind ?? 'public';
}

/**
 * Why a webhook must not be sent to `address`, or null when it may. Loopback, private, carrier-grade NAT and
 * link-local addresses are allowed with `allowPrivate` (tests, private networks); metadata, unspecified, multicast
 * and reserved addresses never are, since no receiver lives there.
 */
export function addressRefusal(address: string, allowPrivate: boolean): string | null {
  const kind = addressKind(address);
  if (kind === 'public' || (allowPrivate && PRIVATE_KINDS.has(kind))) return null;
  return KIND_WORDS[kind];
}
