import { base32Decode, hotp, totpAt } from '../support/totp-authenticator';

/** The tests' authenticator must itself be right: RFC 4226 and RFC 6238 publish test vectors. */
describe('the authenticator used by the tests', () => {
  const rfcKey = Buffer.from('12345678901234567890', 'ascii');

  it('matches the HOTP values of RFC 4226 appendix D', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    expect(expected.map((_, counter) => hotp(rfcKey, counter))).toEqual(expected);
  });

  it('matches the SHA-1 TOTP values of RFC 6238 appendix B (8 digits)', () => {
    const vectors: Array<[number, string]> = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ];
    for (const [seconds, code] of vectors) expect(hotp(rfcKey, Math.floor(seconds / 30), 8)).toBe(code);
  });

  it('decodes base32 secrets as authenticator apps do', () => {
    expect(base32Decode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ').toString('ascii')).toBe('12345678901234567890');
    expect(totpAt('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', 1)).toBe('287082');
  });
});
