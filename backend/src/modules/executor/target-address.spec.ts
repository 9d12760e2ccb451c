import { forbiddenTargetMessage, isForbiddenAddress, isLiteralAddress } from './target-address';

describe('isForbiddenAddress', () => {
  it.each([
    '127.0.0.1', '127.8.9.10', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '169.254.0.1',
    '0.0.0.0', '100.64.0.1', '224.0.0.1', '255.255.255.255', '::1', '::', 'fd00:ec2::254', 'fc00::1', 'fe80::1', '[::1]', '::ffff:10.0.0.1', '::ffff:127.0.0.1',
  ])('refuses %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each([
    // documentation, benchmarking and other special-purpose IPv4 ranges
    '192.0.2.10', '198.51.100.7', '203.0.113.200', '192.88.99.1', '198.19.0.1',
  ])('refuses the special-purpose IPv4 address %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each([
    // IPv4-mapped, in every spelling (a URL's host carries the hexadecimal one)
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hexadecimal'],
    ['[::ffff:7f00:1]', 'IPv4-mapped loopback as a URL host'],
    ['0:0:0:0:0:ffff:7f00:1', 'IPv4-mapped loopback, uncompressed'],
    ['::FFFF:A9FE:A9FE', 'IPv4-mapped metadata address, upper case'],
    // IPv4-compatible (deprecated): refused whatever it embeds
    ['::7f00:1', 'IPv4-compatible loopback'],
    ['::127.0.0.1', 'IPv4-compatible loopback, dotted'],
    ['::a00:1', 'IPv4-compatible 10.0.0.1'],
    ['::808:808', 'IPv4-compatible 8.8.8.8'],
    // IPv4-translated (SIIT)
    ['::ffff:0:7f00:1', 'IPv4-translated loopback'],
    ['::ffff:0:808:808', 'IPv4-translated 8.8.8.8'],
    // NAT64 well-known prefix, embedding a refused IPv4 address
    ['64:ff9b::7f00:1', 'NAT64 of 127.0.0.1'],
    ['64:ff9b::127.0.0.1', 'NAT64 of 127.0.0.1, dotted'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of the metadata address'],
    ['64:ff9b::c0a8:101', 'NAT64 of 192.168.1.1'],
    // local-use NAT64: never a public endpoint
    ['64:ff9b:1::808:808', 'local-use NAT64'],
    ['64:ff9b:1:ffff::1', 'local-use NAT64, other embedding'],
    // 6to4, embedding a refused IPv4 address
    ['2002:7f00:1::', '6to4 of 127.0.0.1'],
    ['2002:a00:1::1', '6to4 of 10.0.0.1'],
    ['2002:a9fe:a9fe:1::5', '6to4 of the metadata address'],
    ['2002:ac10:1::', '6to4 of 172.16.0.1'],
    // Teredo: the client address inside is obfuscated, so it is refused outright
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['2001::1', 'Teredo prefix'],
    // other special-purpose IPv6 ranges
    ['100::1', 'discard-only'],
    ['2001:2::1', 'benchmarking'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation (RFC 9637)'],
    ['5f00::1', 'SRv6 SID'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['fe80::1%eth0', 'link-local with a scope zone'],
  ])('refuses %s (%s)', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '192.169.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '::ffff:808:808', '64:ff9b::808:808', '64:ff9b::8.8.8.8', '2002:808:808::1', '2a00:1450:4001::1'])(
    'allows the public address %s',
    (address) => {
      expect(isForbiddenAddress(address)).toBe(false);
    },
  );

  it('does not classify names (they are checked after DNS resolution)', () => {
    expect(isForbiddenAddress('example.com')).toBe(false);
    expect(isLiteralAddress('example.com')).toBe(false);
    expect(isLiteralAddress('[::1]')).toBe(true);
  });
});

describe('forbiddenTargetMessage', () => {
  it('names a literal as what it is, and a name only by what it resolves to, never the address', () => {
    expect(forbiddenTargetMessage('10.0.0.1', false)).toBe(
      'Blocked: 10.0.0.1 is a loopback, private, link-local, metadata or reserved address; requests to internal networks are not allowed',
    );
    expect(forbiddenTargetMessage('vm', true)).toBe(
      'Blocked: vm resolves to a loopback, private, link-local, metadata or reserved address; requests to internal networks are not allowed',
    );
  });
});
