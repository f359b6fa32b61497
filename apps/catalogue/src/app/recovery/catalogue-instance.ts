import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { QueryRunner } from 'typeorm';
import { LOGGER, ServiceDatabase } from '@dc/platform';

/** How often the lock's connection is checked (and, if it was lost, opened and locked again). */
const CHECK_INTERVAL_MS = 10_000;

/**
 * SQL that is true while the catalogue instance whose id is in `column` is running: its advisory
 * lock (pg_locks shows a bigint key as classid, the high half, and objid, the low half).
 */
export const instanceAlive = (column: string) =>
  `EXISTS (SELECT 1 FROM pg_locks l
            WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND l.granted
              AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
              AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended(${column}::text, 0))`;

/**
 * This running catalogue (one per process) as the database knows it: an id, and a session advisory
 * lock on it held by a connection of its own (one of the pool's) for as long as the process lives. PostgreSQL drops
 * the lock the moment the process dies, even by kill -9 (its connection closes), so any instance,
 * or this one restarted, can tell at once that work held by that id was abandoned: uploads being
 * received, objects being deleted, extractions being run. No lease has to run out first.
 */
@Injectable()
export class CatalogueInstance implements OnModuleInit, OnModuleDestroy {
  readonly id = randomUUID();
  private connection?: QueryRunner;
  private timer?: NodeJS.Timeout;
  private readonly logger: Logger;

  constructor(
    private readonly db: ServiceDatabase,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'catalogue-instance', instanceId: this.id });
  }

  async onModuleInit(): Promise<void> {
    await this.lock();
    this.timer = setInterval(() => void this.keepLocked(), CHECK_INTERVAL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.connection?.release().catch(() => undefined);
    this.connection = undefined;
  }

  private async lock(): Promise<void> {
    const connection = this.db.dataSource.createQueryRunner();
    await connection.connect();
    await connection.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [this.id]);
    this.connection = connection;
  }

  /**
   * A lost connection (the database restarted, a network cut) drops the lock: others may then take
   * this instance's work as abandoned, which the claims and pending rows are made to survive.
   */
  private async keepLocked(): Promise<void> {
    try {
      await this.connection!.query('SELECT 1');
    } catch (error) {
      this.logger.warn({ err: error }, 'lost the connection holding the instance lock; locking again');
      await this.connection?.release().catch(() => undefined);
      await this.lock().catch((again: unknown) => this.logger.error({ err: again }, 'could not lock the instance again; retrying'));
    }
  }
}
