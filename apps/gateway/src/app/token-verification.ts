import { createHash } from 'node:crypto';
import type { Express, NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { CORRELATION_HEADER, INVALID_TOKEN_DETAIL } from '@dc/platform';
import { routeFor } from './route-table';

/** identity's answer to "is this token still current?" (apps/identity/src/app/auth/token-status.controller.ts). */
const TOKEN_STATUS_PATH = '/internal/token-status';
/** How long a verdict is reused; identity writes through this gateway forget every verdict at once. */
export const VERDICT_TTL_MS = 5_000;
const MAX_VERDICTS = 10_000;

/**
 * Asks identity whether a token is current and remembers the answer briefly. Other services check
 * only a token's signature and expiry; identity alone knows whether its account has since changed
 * password, groups or state.
 */
export class TokenVerifier {
  private readonly verdicts = new Map<string, { current: boolean; until: number }>();
  /** Bumped by forgetAll, so an answer asked for before a change is not remembered after it. */
  private generation = 0;

  constructor(
    private readonly identityUrl: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** True or false from identity; throws when identity cannot answer. */
  async isCurrent(authorization: string, correlationId?: string): Promise<boolean> {
    const key = createHash('sha256').update(authorization).digest('base64url');
    const cached = this.verdicts.get(key);
    if (cached && cached.until > this.now()) return cached.current;
    const generation = this.generation;
    const response = await fetch(`${this.identityUrl.replace(/\/+$/, '')}${TOKEN_STATUS_PATH}`, {
      headers: { authorization, ...(correlationId ? { [CORRELATION_HEADER]: correlationId } : {}) },
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer();
    if (response.status !== 204 && response.status !== 401) throw new Error(`identity answered ${response.status} on ${TOKEN_STATUS_PATH}`);
    const current = response.status === 204;
    if (generation !== this.generation) return current;
    this.verdicts.delete(key);
    if (this.verdicts.size >= MAX_VERDICTS) this.verdicts.delete(this.verdicts.keys().next().value!);
    this.verdicts.set(key, { current, until: this.now() + VERDICT_TTL_MS });
    return current;
  }

  /** After a change at identity (password, groups, deletion...), no remembered verdict is trusted. */
  forgetAll(): void {
    this.generation += 1;
    this.verdicts.clear();
  }
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Distributed mode: a call with a token, bound for any service but identity, goes on only if
 * identity says the token is still current, so a token stops working everywhere after a password
 * change, deactivation, deletion or group change, as in embedded mode. Identity checks its own calls.
 * Fails closed: when identity cannot answer, the call is refused with 502.
 */
export function mountTokenVerification(server: Express, identityUrl: string, logger: Logger): TokenVerifier {
  const verifier = new TokenVerifier(identityUrl);
  server.use((req: Request, res: Response, next: NextFunction) => {
    const service = routeFor(req.method, req.originalUrl);
    if (!service) return next();
    if (service === 'identity') {
      if (!READ_METHODS.has(req.method.toUpperCase())) res.on('finish', () => res.statusCode < 400 && verifier.forgetAll());
      return next();
    }
    const authorization = req.headers.authorization;
    // Without the JWT scheme the services treat the call as anonymous; nothing to verify.
    if (!authorization || !/^JWT\s/i.test(authorization)) return next();
    const correlationId = req.headers[CORRELATION_HEADER];
    verifier.isCurrent(authorization, typeof correlationId === 'string' ? correlationId : undefined).then(
      (current) => (current ? next() : res.status(401).json({ detail: INVALID_TOKEN_DETAIL })),
      (error: unknown) => {
        logger.warn({ err: error }, 'identity could not verify a token');
        res.status(502).json({ detail: 'The service is temporarily unavailable. Please try again.' });
      },
    );
  });
  return verifier;
}
