import { Controller, Get, Injectable, Res } from '@nestjs/common';
import type { Response } from 'express';
import { z } from 'zod';
import { Public } from '../auth/auth.decorators';
import { ApiContract } from '../openapi/api-contract';

export type HealthCheck = () => Promise<void>;

/**
 * Services register readiness checks (database, bus, storage); liveness only says the process answers.
 * A check registered with `{ failsReadiness: false }` reports trouble the process can serve through
 * (a background task that failed and will be retried): it shows as "degraded: <reason>", and the
 * process stays in the load balancer's rotation.
 */
@Injectable()
export class HealthRegistry {
  private readonly checks = new Map<string, { check: HealthCheck; failsReadiness: boolean }>();

  register(name: string, check: HealthCheck, options: { failsReadiness?: boolean } = {}): void {
    this.checks.set(name, { check, failsReadiness: options.failsReadiness ?? true });
  }

  async run(timeoutMs = 3000): Promise<{ ok: boolean; checks: Record<string, string> }> {
    const results: Record<string, string> = {};
    let ok = true;
    await Promise.all(
      [...this.checks].map(async ([name, { check, failsReadiness }]) => {
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([check(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timed out')), timeoutMs)))]);
          results[name] = 'up';
        } catch (error) {
          results[name] = `${failsReadiness ? 'down' : 'degraded'}: ${(error as Error).message}`;
          if (failsReadiness) ok = false;
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    return { ok, checks: results };
  }
}

const liveSchema = z.object({ status: z.literal('ok') });
const readySchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  checks: z.record(z.string(), z.string()).describe('check → "up", "down: <reason>" (fails readiness) or "degraded: <reason>" (does not)'),
});

@Controller('health')
export class HealthController {
  constructor(private readonly registry: HealthRegistry) {}

  @ApiContract({ summary: 'Liveness: the process answers', responses: { 200: liveSchema }, example: { status: 'ok' } })
  @Public()
  @Get('live')
  live() {
    return { status: 'ok' };
  }

  @ApiContract({
    summary: 'Readiness: every check of the process (database, bus, storage) is up; 503 in the same shape otherwise',
    responses: { 200: readySchema, 503: readySchema },
    example: { status: 'ok', checks: { database: 'up', bus: 'up' } },
  })
  @Public()
  @Get('ready')
  async ready(@Res({ passthrough: true }) res: Response) {
    const { ok, checks } = await this.registry.run();
    res.status(ok ? 200 : 503);
    return { status: ok ? 'ok' : 'unavailable', checks };
  }
}
