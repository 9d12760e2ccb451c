import { createHmac } from 'node:crypto';

/**
 * What an authenticator app does with the secret it scanned, written from
 * RFC 6238 / RFC 4226 with node:crypto only, so tests do not take the
 * server's TOTP library as their own oracle.
 */
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/=+$/, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** HOTP (RFC 4226 section 5.3): HMAC-SHA-1 of the 8-byte counter, dynamic truncation, `digits` decimal digits. */
export function hotp(key: Buffer, counter: number, digits = 6): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(message).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const binary = ((mac[offset] & 0x7f) << 24) | (mac[offset + 1] << 16) | (mac[offset + 2] << 8) | mac[offset + 3];
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** TOTP (RFC 6238): HOTP over the number of 30-second steps since the Unix epoch. */
export function totpAt(base32Secret: string, step: number): string {
  return hotp(base32Decode(base32Secret), step);
}

export const timeStepOf = (ms: number) => Math.floor(ms / 30_000);

/**
 * Hands out codes the way a user re-reading their app would, never the same
 * time step twice (the server refuses reuse). Servers accept one step of
 * drift either side, so up to three codes fit in one 30-second window; near
 * a step boundary it waits a moment, so the server's clock agrees on "now".
 */
export class Authenticator {
  private lastStep = -1;

  constructor(readonly secret: string) {}

  /** Marks the step of a code as used elsewhere (e.g. the one that enabled two-factor). */
  used(code: string): void {
    const now = timeStepOf(Date.now());
    for (const step of [now - 1, now, now + 1]) if (totpAt(this.secret, step) === code) this.lastStep = Math.max(this.lastStep, step);
  }

  async nextCode(): Promise<string> {
    for (;;) {
      const now = Date.now();
      const into = now % 30_000;
      if (into < 2_000 || into > 28_000) {
        await new Promise((r) => setTimeout(r, (into < 2_000 ? 2_000 - into : 32_000 - into) + 50));
        continue;
      }
      const step = timeStepOf(now);
      const candidate = [step - 1, step, step + 1].find((s) => s > this.lastStep);
      if (candidate !== undefined) {
        this.lastStep = candidate;
        return totpAt(this.secret, candidate);
      }
      await new Promise((r) => setTimeout(r, 32_000 - into + 50));
    }
  }
}
