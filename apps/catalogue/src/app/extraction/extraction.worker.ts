import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy, Optional } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { createEvent, RecordUpdated } from '@dc/contracts';
import { type PrivateColumns, SketchCollector } from '@dc/extraction';
import { BackgroundLoop, LOGGER, runWithCorrelationId, SecretCipher, storableJson } from '@dc/platform';
import { ObjectStorage } from '@dc/storage';
import type { PrivateColumnChoices } from '../record-model/record';
import { fileSketchedEvent, metadataExtractedEvent, recordSnapshot } from '../record-model/record-events';
import { unsealLinkageKey } from '../record-model/linkage-key';
import { PendingObjects } from '../recovery/pending-objects';
import { ClaimedFile, ExtractionOutcome, ExtractionRepository } from './extraction.repository';
import { EarlyExtractions, type EarlyResult } from './early-extractions';
import { MetadataExtractor } from './metadata-extractor';
import { statusFromMeta } from '../record-model/meta-summary';
import { TimeoutError, withTimeout } from './with-timeout';

export interface ExtractionWorkerSettings {
  /** How often the queue is polled (uploads also nudge the worker at once). */
  pollIntervalMs: number;
  /** One file's extraction may take this long; then it fails with a time-out error. */
  timeoutMs: number;
  /** A running file whose heartbeat is older than this is taken to be abandoned and claimed again. */
  leaseSeconds: number;
  heartbeatMs: number;
  /** Tries per file (interrupted runs count); afterwards it fails for good. */
  maxAttempts: number;
  retryDelaySeconds: number;
}

export const EXTRACTION_WORKER_SETTINGS = Symbol('EXTRACTION_WORKER_SETTINGS');

export const DEFAULT_EXTRACTION_WORKER_SETTINGS: ExtractionWorkerSettings = {
  pollIntervalMs: 5_000,
  timeoutMs: 15 * 60_000,
  leaseSeconds: 60,
  heartbeatMs: 10_000,
  maxAttempts: 3,
  retryDelaySeconds: 30,
};

const duration = (ms: number) => (ms < 1000 ? `${ms} ms` : ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`);

/** What users see in META.ERRORS; the cause is logged, never shown (it may name paths or hosts). */
export const EXTRACTION_FAILED_MESSAGE = 'Metadata could not be extracted from this file.';

/**
 * Extracts metadata of uploaded files in the background, in the catalogue's process: claims one
 * file at a time from the queue, streams it from the object store into the MetadataExtractor with a
 * time-out, stores META with its status and publishes file.metadata-extracted and record.updated.
 * A file whose worker died mid-way (kill -9, a crash) is claimed again at once, by any instance or
 * by this one restarted; one whose worker stopped beating, once its lease runs out. Each start
 * counts as an attempt, so a file that kills its worker every time ends failed, never Working.
 */
@Injectable()
export class ExtractionWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly settings: ExtractionWorkerSettings;
  private readonly logger: Logger;
  private readonly workerId = randomUUID();
  private readonly loop: BackgroundLoop;

  constructor(
    private readonly queue: ExtractionRepository,
    private readonly extractor: MetadataExtractor,
    private readonly storage: ObjectStorage,
    private readonly cipher: SecretCipher,
    private readonly pending: PendingObjects,
    private readonly early: EarlyExtractions,
    @Inject(LOGGER) logger: Logger,
    @Optional() @Inject(EXTRACTION_WORKER_SETTINGS) settings?: Partial<ExtractionWorkerSettings>,
  ) {
    this.settings = { ...DEFAULT_EXTRACTION_WORKER_SETTINGS, ...settings };
    this.logger = logger.child({ component: 'extraction-worker' });
    this.loop = new BackgroundLoop(
      (signal) => this.step(signal),
      (error) => this.logger.error({ err: error, workerId: this.workerId }, 'extraction queue failed; trying again at the next poll'),
      this.settings.pollIntervalMs,
    );
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  /** Stops polling, aborts the file in progress (it goes back to the queue) and waits for the loop to end. */
  async onModuleDestroy(): Promise<void> {
    await this.loop.stop();
  }

  /** Looks at the queue now (after an upload); safe to call any time. */
  nudge(): void {
    this.loop.nudge();
  }

  /** Resolves once the queue has nothing due (for tests and start-up checks). */
  async idle(): Promise<void> {
    await this.loop.idle();
  }

  /** One file from the queue; false when none is due. */
  private async step(signal: AbortSignal): Promise<boolean> {
    const claimed = await this.queue.claimNext(randomUUID(), this.settings.leaseSeconds);
    if (!claimed) return false;
    await runWithCorrelationId(`extraction-${claimed.file.id}`, () => this.process(claimed, signal));
    return true;
  }

  private async process(claimed: ClaimedFile, stopping: AbortSignal): Promise<void> {
    const { file, claimToken } = claimed;
    const log = this.logger.child({ fileId: file.id, recordId: file.recordId, attempt: file.attempts });
    if (file.attempts > this.settings.maxAttempts) {
      log.warn('extraction interrupted too often; giving up');
      return this.finish(claimed, this.failure(claimed, `Metadata extraction was interrupted ${this.settings.maxAttempts} times; it was not tried again.`));
    }
    if (!file.storageKey)
      return this.finish(claimed, {
        status: 'skipped',
        meta: this.baseMeta(claimed, 'skipped', ['The file is no longer stored.']),
        error: null,
        dropObject: false,
      });

    // Where the time from upload to META goes, logged with the outcome (npm run bench:extraction -- --parts=upload).
    const claimedAt = Date.now();
    const abort = new AbortController();
    // Stopping the loop aborts the file in progress (it goes back to the queue).
    const stop = () => abort.abort();
    stopping.addEventListener('abort', stop);
    const heartbeat = setInterval(() => void this.queue.heartbeat(file.id, claimToken).catch(() => undefined), this.settings.heartbeatMs);
    try {
      const described = await withTimeout(this.describe(claimed, abort.signal), this.settings.timeoutMs, () => abort.abort());
      // A file's cells may hold NUL or broken UTF-16 past what extraction sniffs: stored as U+FFFD.
      const meta = storableJson(described.meta);
      const status = statusFromMeta(meta);
      const extractedAt = Date.now();
      await this.finish(claimed, { status, meta, error: null, dropObject: claimed.deleteAfterExtraction, sketches: described.sketches });
      const timings = { queuedMs: claimedAt - file.createdAt.getTime(), extractMs: extractedAt - claimedAt, storeMs: Date.now() - extractedAt };
      log.info({ status, ...timings, whileUploading: described.whileUploading }, 'metadata extracted');
    } catch (error) {
      if (this.loop.isStopped && !(error instanceof TimeoutError)) {
        log.info('extraction stopped by shutdown; the file goes back to the queue');
        await this.queue.release(file.id, claimToken);
      } else if (error instanceof TimeoutError) {
        log.warn({ timeoutMs: this.settings.timeoutMs }, 'extraction timed out');
        await this.finish(claimed, this.failure(claimed, `Metadata extraction timed out after ${duration(this.settings.timeoutMs)}.`));
      } else if (file.attempts < this.settings.maxAttempts) {
        log.warn({ err: error }, 'extraction failed; trying again later');
        await this.queue.retryLater(file.id, claimToken, EXTRACTION_FAILED_MESSAGE, this.settings.retryDelaySeconds);
      } else {
        log.error({ err: error }, 'extraction failed for good');
        await this.finish(claimed, this.failure(claimed, EXTRACTION_FAILED_MESSAGE));
      }
    } finally {
      clearInterval(heartbeat);
      stopping.removeEventListener('abort', stop);
    }
  }

  /**
   * What the file holds: from the extraction made while it was uploaded, when that was made with
   * the file's choices and succeeded, else read back from the object store. Aborting (time-out,
   * shutdown) stops either and rejects with the signal's reason, whatever the extractor does.
   */
  private async describe(claimed: ClaimedFile, signal: AbortSignal): Promise<EarlyResult & { whileUploading: boolean }> {
    const { file } = claimed;
    const key = file.storageKey as string;
    const aborted = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
    aborted.catch(() => undefined);
    const early = this.early.take(key, {
      fileName: file.name,
      contentType: file.contentType,
      extractOption: claimed.extractOption,
      privateColumns: claimed.privateColumns,
    });
    if (early) {
      signal.addEventListener('abort', () => early.abort.abort(), { once: true });
      const result = await Promise.race([early.result, aborted]);
      // The size it was given was the request's; the stored file's is the one to show.
      if (result) return { meta: { ...result.meta, SIZE: file.size }, sketches: result.sketches, whileUploading: true };
    }
    signal.throwIfAborted();
    const stream = await this.storage.get(key);
    const destroy = () => stream.destroy();
    signal.addEventListener('abort', destroy, { once: true });
    try {
      signal.throwIfAborted();
      const sketches = new SketchCollector();
      const extraction = this.extractor.extract(
        { stream, fileName: file.name, contentType: file.contentType, size: file.size },
        { extractOption: claimed.extractOption, privateColumns: this.privateColumnsOf(claimed), signal, sketches },
      );
      return { meta: await Promise.race([extraction, aborted]), sketches: sketches.tables, whileUploading: false };
    } finally {
      signal.removeEventListener('abort', destroy);
      stream.destroy();
    }
  }

  /** The owner's choices, with the linkage key unsealed for this extraction only. */
  private privateColumnsOf(claimed: ClaimedFile): PrivateColumns | undefined {
    const choices: PrivateColumnChoices | null = claimed.privateColumns;
    if (!choices) return undefined;
    const { sealedKey, linkageKeyId, ...columns } = choices;
    // Without its key (erased after an earlier extraction of the record) a hashed column is left out rather than shown.
    if (columns.hash.length && !sealedKey)
      return { ...columns, hash: [], formats: [...columns.formats, ...columns.hash.map((column) => ({ column, format: 'exclude' as const }))] };
    return {
      ...columns,
      linkageKeyId: linkageKeyId ?? undefined,
      linkageKey: sealedKey ? unsealLinkageKey(this.cipher, claimed.file.recordId, sealedKey) : undefined,
    };
  }

  private baseMeta(claimed: ClaimedFile, status: 'failed' | 'skipped', errors: string[]): Record<string, unknown> {
    const { file } = claimed;
    return {
      NAME: file.name,
      CONTENT_TYPE: file.contentType,
      SIZE: file.size,
      DATE: new Date().toISOString(),
      EXTRACT_OPTION: claimed.extractOption,
      STATUS: status,
      ERRORS: errors,
    };
  }

  /** A failed extraction still gets META (with ERRORS), so the record never stays in the Working state. */
  private failure(claimed: ClaimedFile, message: string): ExtractionOutcome {
    return { status: 'failed', meta: this.baseMeta(claimed, 'failed', [message]), error: message, dropObject: claimed.deleteAfterExtraction };
  }

  private async finish(claimed: ClaimedFile, outcome: ExtractionOutcome): Promise<void> {
    const result = await this.queue.complete(claimed.file.id, claimed.claimToken, outcome, async (store, file) => {
      // Locked (by complete, record before file): an edit committing meanwhile must not be overtaken by this older snapshot (consumers keep the newest event).
      const record = await store.findRecord(file.recordId, { forUpdate: true });
      if (!record) return;
      await store.publish(
        metadataExtractedEvent(file, { meta: outcome.meta, status: outcome.status, extractOption: claimed.extractOption }),
        createEvent(RecordUpdated, record.id, recordSnapshot(record, await store.files(record.id))),
      );
      if (outcome.sketches?.length) await store.publish(fileSketchedEvent(file, outcome.sketches));
    });
    if (result === null) this.logger.warn({ fileId: claimed.file.id }, 'extraction claim was lost (file reclaimed or deleted); result dropped');
    if (result?.droppedKey) await this.pending.remove([result.droppedKey]);
  }
}
