import { generateKeyPairSync } from 'node:crypto';
import { VerificationKeySet } from './verification-key-set';

function publicJwk(kid: string) {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
}

/** A JWKS source that counts its reads and serves whatever `keys` holds at the time. */
function countingSource(initial: object[]) {
  const source = { keys: initial, reads: 0, failing: false };
  const read = async () => {
    source.reads++;
    await new Promise((resolve) => setImmediate(resolve));
    if (source.failing) throw new Error('unreachable');
    return { keys: source.keys };
  };
  return { source, read };
}

describe('VerificationKeySet', () => {
  const options = { maxAgeMs: 600_000, unknownKidCooldownMs: 60_000 };

  it('answers a known kid from memory and spends one read on any number of concurrent unknown kids', async () => {
    const { source, read } = countingSource([publicJwk('good')]);
    const set = new VerificationKeySet(read, options);
    expect(await set.keyFor('good')).toBeDefined();
    expect(source.reads).toBe(1);

    const answers = await Promise.all(Array.from({ length: 500 }, (_, i) => set.keyFor(`forged-${i}`)));
    expect(answers.every((k) => k === undefined)).toBe(true);
    expect(source.reads).toBe(2);
    // Within the cooldown a further unknown kid is refused without a read; the known kid still answers.
    expect(await set.keyFor('forged-again')).toBeUndefined();
    expect(await set.keyFor('good')).toBeDefined();
    expect(source.reads).toBe(2);
  });

  it("learns the provider's new key on refreshNow(), whatever the cooldown", async () => {
    const { source, read } = countingSource([publicJwk('old')]);
    const set = new VerificationKeySet(read, options);
    expect(await set.keyFor('unknown')).toBeUndefined();
    source.keys = [publicJwk('old'), publicJwk('new')];
    await set.refreshNow();
    expect(await set.keyFor('new')).toBeDefined();
  });

  it('keeps the keys it holds when a read fails, and skips entries that are not RS256 signing keys', async () => {
    const { source, read } = countingSource([publicJwk('good'), { kid: 'hmac', kty: 'oct', k: 'c2VjcmV0' }, { ...publicJwk('enc'), use: 'enc' }, { kid: 'broken', kty: 'RSA' }]);
    const set = new VerificationKeySet(read, { maxAgeMs: 0, unknownKidCooldownMs: 0 });
    expect(await set.keyFor('good')).toBeDefined();
    expect(await set.keyFor('hmac')).toBeUndefined();
    expect(await set.keyFor('enc')).toBeUndefined();
    expect(await set.keyFor('broken')).toBeUndefined();
    source.failing = true;
    await set.refreshNow();
    expect(await set.keyFor('good')).toBeDefined();
  });
});
