import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * Which proxies in front of the server may say who the client is, in the form
 * Fastify's `trustProxy` takes: a hop count, or the proxies' addresses.
 * The client's address (for every per-address limit) is then the one the
 * nearest untrusted hop presented: with `1`, the address the one proxy in
 * front appended to X-Forwarded-For, whatever the client wrote before it.
 */
export type TrustedProxies = number | string[];

/** The named ranges proxy-addr (behind Fastify's trustProxy) understands besides addresses and CIDR ranges. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const MAX_HOPS = 10;

export const TRUST_PROXY_MESSAGES = {
  trueRefused:
    'true would take the left-most X-Forwarded-For address, which any client writes itself; give the number of proxies in front (e.g. 1) or their addresses (e.g. 10.0.0.5,10.1.0.0/16)',
  invalid: `expected the number of proxies in front (0 to ${MAX_HOPS}) or a comma-separated list of proxy addresses and CIDR ranges`,
} as const;

function isAddressOrRange(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const slash = entry.indexOf('/');
  if (slash === -1) return isIP(entry) !== 0;
  const family = isIP(entry.slice(0, slash));
  const prefix = entry.slice(slash + 1);
  return family !== 0 && /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** Parses TRUST_PROXY: `0`-`10` hops (`false` is 0), or addresses, CIDR ranges and loopback/linklocal/uniquelocal. */
export const trustProxySetting = z
  .string()
  .default('0')
  .transform((raw, ctx): TrustedProxies => {
    const value = raw.trim().toLowerCase();
    if (value === 'false' || value === 'no') return 0;
    if (value === 'true' || value === 'yes') {
      ctx.addIssue({ code: 'custom', message: TRUST_PROXY_MESSAGES.trueRefused });
      return z.NEVER;
    }
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops <= MAX_HOPS) return hops;
    } else {
      const entries = value.split(',').map((entry) => entry.trim());
      if (entries.every(isAddressOrRange)) return entries;
    }
    ctx.addIssue({ code: 'custom', message: TRUST_PROXY_MESSAGES.invalid });
    return z.NEVER;
  });
