import { isForbiddenAddress, isLiteralAddress } from './target-address';

describe('isForbiddenAddress', () => {
  it.each([
    '127.0.0.1', '127.8.9.10', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '169.254.0.1',
    '0.0.0.0', '100.64.0.1', '224.0.0.1', '255.255.255.255', '::1', '::', 'fd00:ec2::254', 'fc00::1', 'fe80::1', '[::1]', '::ffff:10.0.0.1', '::ffff:127.0.0.1',
  ])('refuses %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '192.169.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])('allows %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });

  it('does not classify names (they are checked after DNS resolution)', () => {
    expect(isForbiddenAddress('example.com')).toBe(false);
    expect(isLiteralAddress('example.com')).toBe(false);
    expect(isLiteralAddress('[::1]')).toBe(true);
  });
});
