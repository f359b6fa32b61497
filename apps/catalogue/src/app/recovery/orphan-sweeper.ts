import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER } from '@dc/platform';
import { PendingObjects } from './pending-objects';

/** Other instances may die at any time (distributed mode): their leftovers are looked for this often. */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * Deletes the objects of uploads and deletes that a killed instance left half done: once at
 * start-up, before the product answers (so a restarted product starts clean), then periodically.
 */
@Injectable()
export class OrphanSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  private readonly logger: Logger;

  constructor(
    private readonly pending: PendingObjects,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'orphan-sweeper' });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.sweep();
    this.timer = setInterval(() => void this.sweep(), SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  private async sweep(): Promise<void> {
    try {
      const swept = await this.pending.sweep();
      if (swept) this.logger.warn({ swept }, 'deleted stored objects left behind by an instance that stopped mid-way');
    } catch (error) {
      this.logger.error({ err: error }, 'sweeping left-behind objects failed; trying again later');
    }
  }
}
