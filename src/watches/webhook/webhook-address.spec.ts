import { addressKind, addressRefusal } from './webhook-address';

describe('addressKind', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['172.15.255.255', 'public'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.255', 'shared'],
    ['100.128.0.1', 'public'],
    ['169.254.0.1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['2606:4700:4700::1111', 'public'],
    ['2001:4860:4860::8888', 'public'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::', 'unspecified'],
    ['fd00::1', 'private'],
    ['fc00::1', 'private'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', 'private'],
    ['ff02::1', 'multicast'],
    ['fd00:ec2::254', 'metadata'],
    ['2001:db8::1', 'reserved'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:8.8.8.8', 'public'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['64:ff9b::808:808', 'public'],
    ['64:ff9b:1::1', 'private'],
    ['2002:7f00:1::1', 'loopback'],
    ['2002:808:808::1', 'public'],
    ['::2', 'unspecified'], // read as the IPv4-compatible 0.0.0.2
    ['::1:0:0:0', 'reserved'],
  ])('%s is %s', (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });

  it('throws on text that is not an IP address', () => {
    expect(() => addressKind('example.com')).toThrow(TypeError);
  });
});

describe('addressRefusal', () => {
  it.each([
    ['8.8.8.8', false, null],
    ['8.8.8.8', true, null],
    ['127.0.0.1', false, 'a loopback address'],
    ['127.0.0.1', true, null],
    ['10.1.2.3', false, 'a private address'],
    ['10.1.2.3', true, null],
    ['100.64.1.1', false, 'a carrier-grade NAT address'],
    ['100.64.1.1', true, null],
    ['169.254.1.1', false, 'a link-local address'],
    ['169.254.1.1', true, null],
    ['fd12::1', true, null],
    // Never a receiver, whatever the switch says.
    ['169.254.169.254', false, 'a cloud metadata address'],
    ['169.254.169.254', true, 'a cloud metadata address'],
    ['::ffff:169.254.169.254', true, 'a cloud metadata address'],
    ['0.0.0.0', true, 'the unspecified address'],
    ['::', true, 'the unspecified address'],
    ['224.0.0.1', true, 'a multicast address'],
    ['255.255.255.255', true, 'a reserved address'],
  ])('%s with allowPrivate=%s: %s', (address, allowPrivate, refusal) => {
    expect(addressRefusal(address, allowPrivate)).toBe(refusal);
  });
});
