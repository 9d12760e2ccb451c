import { BlockList, isIP } from 'node:net';

/**
 * Address ranges a scheduled request may never reach unless the operator
 * allows private targets: they belong to the service's own network, not to
 * the user's public endpoint (SSRF protection).
 */
const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, including the 169.254.169.254 metadata service
  ['172.16.0.0', 12], // RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // RFC 1918
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local (includes AWS's fd00:ec2::254 metadata address)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:10.0.0.1), if it is one. */
function mappedIpv4(address: string): string | null {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return match ? match[1] : null;
}

/** True when `address` (a literal IP) is loopback, private, link-local, metadata, multicast or unspecified. */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 4) return BLOCKED.check(bare, 'ipv4');
  if (family === 6) {
    const v4 = mappedIpv4(bare);
    return v4 ? BLOCKED.check(v4, 'ipv4') : BLOCKED.check(bare, 'ipv6');
  }
  return false;
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

/** The message every refusal carries in the execution log. */
export function forbiddenTargetMessage(host: string, address: string): string {
  const resolved = host === address ? '' : ` resolves to ${address}, which`;
  return `Blocked: ${host}${resolved} is a loopback, private, link-local or metadata address; requests to internal networks are not allowed`;
}

/** Thrown by the guarded DNS lookup so the failure names its cause. */
export class ForbiddenTargetError extends Error {
  readonly code = 'ERR_FORBIDDEN_TARGET';
  constructor(host: string, address: string) {
    super(forbiddenTargetMessage(host, address));
    this.name = 'ForbiddenTargetError';
  }
}
