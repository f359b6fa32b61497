import { Inject, Injectable } from '@nestjs/common';
import { lookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { APP_CONFIG, type AppConfig } from '@dc/platform';

/** The provider's host may not be reached from here (unknown, or an address the operator did not allow). */
export class AddressRefusedError extends Error {
  constructor(readonly host: string) {
    super(`${host}: not a public address and not in ALLOWED_PRIVATE_ENDPOINTS`);
  }
}

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

const TIMEOUT_MS = 10_000;
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The identity service's outgoing calls to identity providers follow the same rule as the
 * catalogue's (apps/catalogue/src/app/network/endpoint-guard.ts): only public addresses, except the
 * hosts, addresses and ranges the operator lists in ALLOWED_PRIVATE_ENDPOINTS (an on-premise
 * Keycloak). The checked address is the one connected to, so a second DNS answer changes nothing.
 * `fetch` is a Fetch API function for openid-client's customFetch, with a time limit and a body cap.
 */
@Injectable()
export class OutgoingAddressGuard {
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
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;
    const family = isIP(mapped);
    if (family === 0) return false;
    const type = family === 4 ? 'ipv4' : 'ipv6';
    return !NOT_PUBLIC.check(mapped, type) || this.allowedHosts.has(host.toLowerCase()) || this.allowedNetworks.check(mapped, type);
  }

  /** The address to connect to for `host`, checked; throws AddressRefusedError. */
  async resolve(host: string): Promise<LookupAddress> {
    const bare = host.replace(/^\[|\]$/g, '');
    let addresses: LookupAddress[];
    try {
      addresses = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await lookup(bare, { all: true });
    } catch {
      throw new AddressRefusedError(bare);
    }
    if (addresses.length === 0 || !addresses.every((a) => this.allowed(bare, a.address))) throw new AddressRefusedError(bare);
    return addresses[0];
  }

  /** Whether plain-http issuers may be used: only where the operator allowed private addresses (a test or lab provider). */
  allowsPrivateEndpoints(): boolean {
    return this.allowedHosts.size > 0 || this.allowedNetworks.rules.length > 0;
  }

  /** A Fetch API function whose connections go only to checked addresses. */
  readonly fetch = async (
    input: string | URL,
    init: { method?: string; headers?: unknown; body?: unknown; signal?: AbortSignal | null } = {},
  ): Promise<Response> => {
    const url = new URL(String(input));
    const target = await this.resolve(url.hostname);
    const pinned = ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) =>
      options?.all ? callback(null, [target]) : callback(null, target.address, target.family)) as unknown as LookupFunction;
    const headers = Object.fromEntries(new Headers(init.headers as ConstructorParameters<typeof Headers>[0]).entries());
    const body = init.body === undefined || init.body === null ? undefined : init.body instanceof URLSearchParams ? init.body.toString() : init.body;
    if (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array)) throw new TypeError('Unsupported request body');
    const signal = init.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(TIMEOUT_MS)]) : AbortSignal.timeout(TIMEOUT_MS);
    return new Promise<Response>((resolve, reject) => {
      const client = url.protocol === 'https:' ? https : http;
      const request = client.request(url, { method: init.method ?? 'GET', headers, lookup: pinned, signal }, (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BODY_BYTES) request.destroy(new Error('The answer is too large'));
          else chunks.push(chunk);
        });
        response.on('error', reject);
        response.on('end', () => {
          const answer = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (Array.isArray(value)) value.forEach((v) => answer.append(name, v));
            else if (value !== undefined) answer.set(name, value);
          }
          const status = response.statusCode ?? 502;
          const bytes = Buffer.concat(chunks);
          resolve(new Response(status === 204 || status === 304 ? null : bytes, { status, statusText: response.statusMessage, headers: answer }));
        });
      });
      request.on('error', reject);
      request.end(body);
    });
  };
}
