import { BlockList, isIP } from 'node:net';

/**
 * IPv4 ranges a scheduled request may never reach unless the operator allows
 * private targets: they belong to the service's own network or are not
 * public endpoints at all (SSRF protection).
 */
const BLOCKED_IPV4 = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, including the 169.254.169.254 metadata service
  ['172.16.0.0', 12], // RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation (TEST-NET-1)
  ['192.88.99.0', 24], // former 6to4 relay anycast
  ['192.168.0.0', 16], // RFC 1918
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation (TEST-NET-2)
  ['203.0.113.0', 24], // documentation (TEST-NET-3)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const;

/** IPv6 ranges refused as a whole: not public endpoints, or forms that reach IPv4 hosts no rule could check. */
const BLOCKED_IPV6 = [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible ::a.b.c.d
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT), used only inside a translator's network
  ['64:ff9b:1::', 48], // local-use IPv4/IPv6 translation
  ['100::', 64], // discard-only
  ['2001::', 32], // Teredo: the IPv4 client address inside is obfuscated
  ['2001:2::', 48], // benchmarking
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
  ['5f00::', 16], // segment routing (SRv6) SIDs
  ['fc00::', 7], // unique local (includes AWS's fd00:ec2::254 metadata address)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, still routed inside some networks)
  ['ff00::', 8], // multicast
] as const;

/** The two hexadecimal IPv6 groups holding an IPv4 address of the tables above. */
function ipv4Groups(ipv4: string): string {
  const [a, b, c, d] = ipv4.split('.').map(Number);
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/**
 * One list for every family. IPv6 forms that carry an IPv4 address in a fixed
 * place reach that IPv4 host, so each refused IPv4 range is refused inside
 * them too: NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::). Node's
 * BlockList already checks IPv4-mapped addresses (::ffff:a.b.c.d, in any
 * spelling) against the IPv4 rules.
 */
const BLOCKED = new BlockList();
for (const [network, prefix] of BLOCKED_IPV4) {
  BLOCKED.addSubnet(network, prefix, 'ipv4');
  BLOCKED.addSubnet(`64:ff9b::${network}`, 96 + prefix, 'ipv6');
  BLOCKED.addSubnet(`2002:${ipv4Groups(network)}::`, 16 + prefix, 'ipv6');
}
for (const [network, prefix] of BLOCKED_IPV6) BLOCKED.addSubnet(network, prefix, 'ipv6');

/** True when `address` (a literal IP, IPv6 with or without brackets) is not a public address a job may reach. */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 0) return false;
  return BLOCKED.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Names cloud providers give their instance metadata services. They resolve
 * to link-local addresses only inside the cloud, so they are refused by name
 * too: a job saved elsewhere must not start reaching them after a move.
 */
const METADATA_HOSTS = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.azure.com',
  'metadata.oraclecloud.com',
  'metadata.tencentyun.com',
]);

/** True for a well-known cloud metadata service name (any case, with or without a trailing dot). */
export function isMetadataHost(host: string): boolean {
  return METADATA_HOSTS.has(host.toLowerCase().replace(/\.$/, ''));
}

/** True when the host part of a URL is a literal IP address (with or without IPv6 brackets). */
export function isLiteralAddress(host: string): boolean {
  return isIP(host.replace(/^\[|\]$/g, '')) !== 0;
}

/**
 * The message every refusal carries in the execution log. For a name it says
 * that the name resolves to an internal address, never which one: the log
 * must not map the service's own network for whoever writes the job.
 */
export function forbiddenTargetMessage(host: string, resolved: boolean): string {
  return `Blocked: ${host} ${resolved ? 'resolves to' : 'is'} a loopback, private, link-local, metadata or reserved address; requests to internal networks are not allowed`;
}

/** Thrown when a job's target is refused (a literal before connecting, a name by the guarded DNS lookup) so the failure names its cause. */
export class ForbiddenTargetError extends Error {
  readonly code = 'ERR_FORBIDDEN_TARGET';
  /** `resolved`: the host is a name found to resolve to a refused address (as opposed to a refused literal or name). */
  constructor(host: string, resolved: boolean) {
    super(forbiddenTargetMessage(host, resolved));
    this.name = 'ForbiddenTargetError';
  }
}
