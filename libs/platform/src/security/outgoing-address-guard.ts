import { lookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');

/** An address on the public internet (not loopback, private, link-local, multicast or reserved). */
export function isPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPublicAddress(mapped[1]);
  const family = isIP(address);
  return family !== 0 && !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The address may not be reached from here: unknown host, or an address the operator did not allow. */
export class OutgoingAddressRefusedError extends Error {
  constructor(
    readonly why: 'unknown host' | 'not allowed',
    readonly host = '',
  ) {
    super(why);
  }
}

/**
 * The address guard for every outgoing call a service makes on a user's behalf (the catalogue's
 * connections, cloud accounts and DCAT imports, identity providers, webhook deliveries): only public addresses,
 * so nobody can make the server reach its own network (server-side request forgery), except the
 * hosts, addresses and ranges the operator lists in ALLOWED_PRIVATE_ENDPOINTS. The checked address
 * is the one connected to (`lookup()` for HTTP agents), so a second DNS answer changes nothing.
 */
export class OutgoingAddressGuard {
  private readonly allowedNetworks = new BlockList();
  private readonly allowedHosts = new Set<string>();

  constructor(allowList: string | undefined) {
    for (const entry of (allowList ?? '')
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean)) {
      const [address, bits] = entry.split('/');
      const family = isIP(address);
      if (!family) this.allowedHosts.add(entry.toLowerCase());
      else if (bits === undefined) this.allowedNetworks.addAddress(address, family === 4 ? 'ipv4' : 'ipv6');
      else this.allowedNetworks.addSubnet(address, Number(bits), family === 4 ? 'ipv4' : 'ipv6');
    }
  }

  private allowed(host: string, address: string): boolean {
    if (isPublicAddress(address) || this.allowedHosts.has(host.toLowerCase())) return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;
    const family = isIP(mapped);
    return family !== 0 && this.allowedNetworks.check(mapped, family === 4 ? 'ipv4' : 'ipv6');
  }

  /** The address to connect to for `host`, checked; throws OutgoingAddressRefusedError. */
  async resolve(host: string): Promise<LookupAddress> {
    const bare = host.replace(/^\[|\]$/g, '');
    let addresses: LookupAddress[];
    try {
      addresses = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await lookup(bare, { all: true });
    } catch {
      throw new OutgoingAddressRefusedError('unknown host', bare);
    }
    if (addresses.length === 0 || !addresses.every((a) => this.allowed(bare, a.address))) throw new OutgoingAddressRefusedError('not allowed', bare);
    return addresses[0];
  }

  /** Whether the operator listed any private endpoint (a lab or on-premise service may then speak plain HTTP). */
  allowsPrivateEndpoints(): boolean {
    return this.allowedHosts.size > 0 || this.allowedNetworks.rules.length > 0;
  }

  /** A dns.lookup for HTTP agents: resolves and checks every host they connect to. */
  lookup(): LookupFunction {
    return ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
      this.resolve(hostname).then(
        (address) => (options?.all ? callback(null, [address]) : callback(null, address.address, address.family)),
        (error: Error) => callback(Object.assign(error, { code: 'EREFUSED' })),
      );
    }) as unknown as LookupFunction;
  }
}
