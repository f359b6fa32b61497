import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';
import { BackgroundLoop, LOGGER } from '@dc/platform';
import type { RowIndexBuild } from './row-index';
import { RowIndexBuilder } from './row-index.builder';
import { type IndexableFile, RowIndexRepository } from './row-index.repository';

/** How often the background builder looks for stored files without an index. */
const POLL_INTERVAL_MS = 10_000;
/** Dropped builds whose objects are deleted per step. */
const DROPPED_PER_STEP = 20;
/** A build still building after this long belongs to a process that died mid-build (kill -9, power loss). */
export const STALE_BUILD_MS = 6 * 60 * 60 * 1000;
/** How often stale builds are looked for (also once at start-up). */
const STALE_SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Row-hash indexes of stored files: built in the background as soon as a file's sketch arrives
 * (one file at a time), or at once when rows are asked for before that; one build per file at a
 * time in this process. Dropped builds (the file changed or went away) lose their objects here.
 */
@Injectable()
export class RowIndexes implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger: Logger;
  private readonly building = new Map<string, Promise<RowIndexBuild | null>>();
  private readonly loop: BackgroundLoop;
  private nextStaleSweep = 0;

  constructor(
    private readonly repository: RowIndexRepository,
    private readonly builder: RowIndexBuilder,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'row-indexes' });
    this.loop = new BackgroundLoop(
      (signal) => this.step(signal),
      (error) => this.logger.error({ err: error }, 'row index queue failed; trying again at the next poll'),
      POLL_INTERVAL_MS,
    );
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.loop.stop();
    await Promise.allSettled(this.building.values());
  }

  /** A file's sketch arrived or changed, or a file went away. */
  nudge(): void {
    this.loop.nudgeAfterCommit();
  }

  /**
   * Marks dropped the builds of processes that died mid-build (still building after STALE_BUILD_MS);
   * the queue then deletes their objects. Runs at start-up and every few minutes.
   */
  async dropStaleBuilds(staleAfterMs = STALE_BUILD_MS): Promise<number> {
    const stale = await this.repository.dropStaleBuilds(staleAfterMs);
    if (stale > 0) {
      this.logger.warn({ builds: stale }, 'row index builds of a process that died mid-build were dropped; their objects are deleted');
      this.loop.nudge();
    }
    return stale;
  }

  /** Resolves once nothing is due (tests, benchmarks). */
  idle(): Promise<void> {
    return this.loop.idle();
  }

  /** The file's ready index, built now when it has none; null when the file is not stored or cannot be read. */
  async ready(fileId: string): Promise<RowIndexBuild | null> {
    const ready = await this.repository.readyBuild(fileId);
    if (ready) return ready;
    const file = await this.repository.file(fileId);
    return file ? this.build(file) : null;
  }

  private build(file: IndexableFile, signal?: AbortSignal): Promise<RowIndexBuild | null> {
    const running = this.building.get(file.fileId);
    if (running) return running;
    const started = Date.now();
    const buildId = globalThis.crypto.randomUUID();
    const work = (async () => {
      try {
        // Recorded first: if this process dies mid-build, the stale sweep finds its objects.
        await this.repository.begin(file.fileId, buildId);
        const build = await this.builder.build(file, signal, buildId);
        const status = await this.repository.save(file, build, { status: 'ready' });
        this.logger.info(
          { fileId: file.fileId, columns: build.columns.length, rows: build.columns[0]?.rows ?? 0, ms: Date.now() - started, status },
          'row index built',
        );
        return status === 'ready' ? build : null;
      } catch (error) {
        if (signal?.aborted) {
          await this.repository.drop(buildId);
          return null;
        }
        this.logger.warn({ err: error, fileId: file.fileId }, 'row index could not be built; rows are estimated from sketches');
        await this.repository.save(
          file,
          { buildId, fileId: file.fileId, columns: [] },
          { status: 'failed', error: error instanceof Error ? error.message.slice(0, 500) : 'failed' },
        );
        return null;
      }
    })().finally(() => this.building.delete(file.fileId));
    this.building.set(file.fileId, work);
    return work;
  }

  /** One step of the background queue: drop stale builds, delete dropped builds' objects, else index the next stored file. */
  private async step(signal: AbortSignal): Promise<boolean> {
    if (Date.now() >= this.nextStaleSweep) {
      this.nextStaleSweep = Date.now() + STALE_SWEEP_INTERVAL_MS;
      await this.dropStaleBuilds();
    }
    const dropped = await this.repository.droppedBuilds(DROPPED_PER_STEP);
    for (const { buildId, fileId } of dropped) {
      await this.builder.remove(fileId, buildId);
      await this.repository.forget(buildId);
    }
    if (dropped.length > 0) return true;
    const next = await this.repository.nextUnindexed();
    if (!next || this.loop.isStopped) return false;
    await this.build(next, signal);
    return true;
  }
}
