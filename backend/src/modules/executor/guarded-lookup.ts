import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { ForbiddenTargetError, isForbiddenAddress } from './target-address';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A drop-in for dns.lookup used by the executor's sockets: it resolves the
 * name, then refuses the connection when any resolved address is internal.
 * Checking the addresses the socket will actually connect to (not a separate
 * earlier lookup) closes the DNS-rebinding gap. The refusal names the host
 * but not the address it resolved to. Names on the operator's allowlist may
 * resolve anywhere.
 */
export function guardedLookup(allowlist: ReadonlySet<string>) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const trusted = allowlist.has(hostname.toLowerCase());
      if (!trusted && addresses.some((a) => isForbiddenAddress(a.address))) return callback(new ForbiddenTargetError(hostname, true), []);
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
