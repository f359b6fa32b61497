import { Logger } from '@nestjs/common';
import { EventEnvelope, validateEnvelope } from '@dc/contracts';
import { DataSource } from 'typeorm';
import { EventBus, MessagingLogger } from './event-bus';
import { describeError } from './delivery';
import { quoteSchema } from './schema-name';

export interface OutboxRelayOptions {
  dataSource: DataSource;
  schema: string;
  bus: EventBus;
  /** Rows published per transaction; default 100. */
  batchSize?: number;
  /** How often the outbox is polled when nobody nudges; default 1000 ms. */
  pollIntervalMs?: number;
  /** Backoff after a failed publish, doubling from min to max; default 200 ms to 30 s. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  logger?: MessagingLogger;
}

interface PendingRow {
  id: string;
  envelope: unknown;
}

/**
 * Publishes committed outbox rows in the order they were written, then marks them published.
 * A crash after publish and before the mark publishes them again: delivery is at-least-once, and
 * consumers are idempotent. Only one relay per schema works at a time (an advisory lock), which
 * keeps one key's events in order even with several replicas running a relay.
 */
export class OutboxRelay {
  private readonly table: string;
  private readonly lockName: string;
  private readonly logger: MessagingLogger;
  private running = false;
  private loop?: Promise<void>;
  private wake?: () => void;
  private nudged = false;
  /** Passes of this relay never overlap. */
  private pass: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: OutboxRelayOptions) {
    this.table = `${quoteSchema(options.schema)}.outbox_events`;
    this.lockName = `outbox-relay:${options.schema}`;
    this.logger = options.logger ?? new Logger(OutboxRelay.name);
  }

  /** Starts relaying in the background. Idempotent. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Stops after the pass in progress; whatever is left stays in the outbox for the next start. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    this.loop = undefined;
  }

  /** Tells the relay there is something new (call right after a commit that wrote to the outbox). */
  nudge(): void {
    this.nudged = true;
    this.wake?.();
  }

  /**
   * Publishes one batch of pending rows; resolves how many rows it handled (published, or set
   * aside as invalid). Rejects when the bus fails (the rows stay pending, their attempts counted).
   * Resolves 0 while another relay holds this schema's outbox.
   */
  runOnce(): Promise<number> {
    const next = this.pass.then(() => this.publishBatch());
    this.pass = next.catch(() => undefined);
    return next;
  }

  /** Publishes until nothing is pending; resolves how many rows it handled. */
  async drain(): Promise<number> {
    let total = 0;
    const batchSize = this.options.batchSize ?? 100;
    for (;;) {
      const handled = await this.runOnce();
      total += handled;
      if (handled < batchSize) return total;
    }
  }

  private async run(): Promise<void> {
    const batchSize = this.options.batchSize ?? 100;
    const pollInterval = this.options.pollIntervalMs ?? 1000;
    const minBackoff = this.options.minBackoffMs ?? 200;
    const maxBackoff = this.options.maxBackoffMs ?? 30000;
    let backoff = minBackoff;
    while (this.running) {
      this.nudged = false;
      try {
        const handled = await this.runOnce();
        backoff = minBackoff;
        if (handled < batchSize && !this.nudged) await this.sleep(pollInterval, false);
      } catch (error) {
        this.logger.warn(`outbox ${this.options.schema}: publish failed, retrying in ${backoff} ms: ${describeError(error)}`);
        await this.sleep(backoff, true);
        backoff = Math.min(backoff * 2, maxBackoff);
      }
    }
  }

  /** Sleeps until the time is up, the relay stops, or (unless backing off) a nudge comes. */
  private sleep(ms: number, backingOff: boolean): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      if (!this.running) return resolve();
      const timer = setTimeout(done, ms);
      this.wake = () => {
        if (!backingOff || !this.running) done();
      };
    });
  }

  private async publishBatch(): Promise<number> {
    const { dataSource, bus } = this.options;
    let failure: unknown;
    const published = await dataSource.transaction(async (manager) => {
      const [{ locked }]: { locked: boolean }[] = await manager.query('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked', [this.lockName]);
      if (!locked) return 0;
      const rows: PendingRow[] = await manager.query(
        `SELECT id, envelope FROM ${this.table} WHERE published_at IS NULL AND rejected_at IS NULL ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [this.options.batchSize ?? 100],
      );
      if (rows.length === 0) return 0;

      const events: EventEnvelope[] = [];
      for (const row of rows) {
        try {
          events.push(validateEnvelope(row.envelope));
        } catch (error) {
          // A row written under an older contract: publishing it would fail forever and hold up the rest.
          this.logger.error(`outbox ${this.options.schema}: event ${row.id} no longer validates and is set aside: ${describeError(error)}`);
          await manager.query(`UPDATE ${this.table} SET rejected_at = now(), last_error = $2 WHERE id = $1`, [row.id, describeError(error)]);
        }
      }
      const ids = events.map((event) => event.id);
      try {
        await bus.publish(events);
      } catch (error) {
        failure = error;
        await manager.query(`UPDATE ${this.table} SET attempts = attempts + 1, last_error = $2 WHERE id = ANY($1::uuid[])`, [ids, describeError(error)]);
        return 0;
      }
      await manager.query(`UPDATE ${this.table} SET published_at = now(), attempts = attempts + 1, last_error = NULL WHERE id = ANY($1::uuid[])`, [ids]);
      return rows.length;
    });
    if (failure !== undefined) throw failure;
    return published;
  }
}
