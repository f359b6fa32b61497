import { Inject, Injectable } from '@nestjs/common';
import { lookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { APP_CONFIG, type AppConfig } from '@dc/platform';
import { isPublicAddress } from '../uploads/source-download';

/** The endpoint may not be reached from here: unknown host, or an address the operator did not allow. */
export class EndpointRefusedError extends Error {
  constructor(readonly why: 'unknown host' | 'not allowed') {
    super(why);
  }
}

/**
 * Where the server connects on a user's behalf (database hosts of connections, S3 endpoints of
 * cloud accounts): like extractFromURL's fetches, only to public addresses, so that nobody can make
 * the server reach its own network (server-side request forgery), except the hosts, addresses and
 * ranges the operator lists in ALLOWED_PRIVATE_ENDPOINTS (an internal MinIO, a database beside the
 * product). The checked address is the one connected to, so a second DNS answer changes nothing.
 */
@Injectable()
export class EndpointGuard {
  private readonly allowedNetworks = new BlockList();
  private readonly allowedHosts = new Set<string>();

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'ALLOWED_PRIVATE_ENDPOINTS'>) {
    for (const entry of (config.ALLOWED_PRIVATE_ENDPOINTS ?? '')
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

  /** The address to connect to for `host`, checked; throws EndpointRefusedError. */
  async resolve(host: string): Promise<LookupAddress> {
    const bare = host.replace(/^\[|\]$/g, '');
    let addresses: LookupAddress[];
    try {
      addresses = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await lookup(bare, { all: true });
    } catch {
      throw new EndpointRefusedError('unknown host');
    }
    if (addresses.length === 0 || !addresses.every((a) => this.allowed(bare, a.address))) throw new EndpointRefusedError('not allowed');
    return addresses[0];
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
