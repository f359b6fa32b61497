// The blocks of a CSV read by worker threads (csv-threads.ts): handed to the least busy thread,
// described there (csv-worker.ts), and merged here in file order; a block the byte reader declines
// is read from there on as extractCsv reads it.
import type { ExtractorContext } from './context';
import type { BlockOutcome } from './csv-blocks';
import { type ChunkSource, type CsvRead, readCsv } from './csv';
import { CsvThread, type CsvThreadData, type FromCsvThread, revived } from './csv-thread';
import type { TextChunkDecoder } from './io';
import { SketchCollector } from './sketch';
import { TableBuilder, type TableMerger } from './table';
import type { CsvInfo } from './types';

/** Bytes a block holds, at least (it ends at the next record end). */
export const DEFAULT_BLOCK_BYTES = 4 * 1024 * 1024;
/** Blocks handed to a thread and not described yet; the stream waits beyond that. */
const MAX_IN_FLIGHT = 2;
/** Room a block buffer has beyond blockBytes, for the record that ends the block. */
const BLOCK_SLACK = 1024 * 1024;

/**
 * Buffers blocks are handed to threads in, and back: reused, because the first touch of a fresh
 * buffer's pages costs more than copying into one (docs/benchmarks.md).
 */
class BlockBuffers {
  private readonly free: ArrayBuffer[] = [];

  constructor(private readonly size: number) {}

  /** A buffer holding `pieces` one after the other. */
  fill(pieces: Buffer[]): { buffer: ArrayBuffer; length: number } {
    const length = pieces.reduce((sum, piece) => sum + piece.length, 0);
    const reusable = this.free.findIndex((buffer) => buffer.byteLength >= length);
    const buffer = reusable >= 0 ? this.free.splice(reusable, 1)[0] : new ArrayBuffer(Math.max(length, this.size));
    const target = Buffer.from(buffer);
    let offset = 0;
    for (const piece of pieces) offset += piece.copy(target, offset);
    return { buffer, length };
  }

  release(buffer: ArrayBuffer): void {
    this.free.push(buffer);
  }
}

/** The stream being read, whose chunks read so far can be given again first (Chunks, csv-threads.ts). */
export interface Rereadable {
  from(first: Uint8Array[]): ChunkSource;
}

/** The threads of one extraction, the blocks handed out, and their figures merged in file order. */
export class BlockRun {
  private readonly threads: CsvThread[] = [];
  /** Blocks handed out and not merged yet: where they start, and their bytes once back (to be read another way if need be). */
  private readonly blocks = new Map<number, { offset: number; length: number; buffer: ArrayBuffer | null }>();
  private readonly buffers: BlockBuffers;
  private readonly outcomes = new Map<number, BlockOutcome>();
  private nextIndex = 0;
  private nextMerged = 0;
  private failure: Error | null = null;
  /** The first block that could not be described as bytes, or was too long, and why. */
  private trouble: { index: number; kind: 'declined' | 'too-long' } | null = null;
  private stopped: string | null = null;
  private textRead: CsvRead | null = null;
  private wake: (() => void) | null = null;
  /** A block gathers no more than this before the rest is read another way. */
  readonly largestBlock: number;

  constructor(
    private readonly ctx: ExtractorContext,
    private readonly info: CsvInfo,
    private readonly headers: string[],
    count: number,
    /** Columns left to sketch when the table opened (undefined: no sketches). */
    private readonly sketchBudget: number | undefined,
    private readonly merger: TableMerger,
    private readonly table: TableBuilder,
  ) {
    const blockBytes = ctx.threads?.blockBytes ?? DEFAULT_BLOCK_BYTES;
    this.largestBlock = blockBytes + ctx.limits.maxLineBytes * 4;
    this.buffers = new BlockBuffers(blockBytes + BLOCK_SLACK);
    const data: CsvThreadData = {
      option: ctx.option,
      limits: ctx.limits,
      fileName: ctx.fileName,
      privateColumns: ctx.privacy?.choices,
      info,
      headers,
      sketchBudget: this.sketchBudget,
    };
    for (let i = 0; i < count; i++)
      this.threads.push(
        new CsvThread(
          data,
          (thread, message) => this.receive(thread, message),
          (error) => this.fail(error),
        ),
      );
  }

  /**
   * Hands the next block (`pieces`, from stream offset `offset`) to the least busy thread, waiting
   * for room; false, the block not handed out, once reading as blocks stops.
   */
  async hand(pieces: Buffer[], offset: number, windows1252From: number, final: boolean): Promise<boolean> {
    for (;;) {
      this.check();
      if (this.trouble) return false;
      const thread = this.threads.reduce((a, b) => (b.inFlight < a.inFlight ? b : a));
      // Blocks described ahead of one still being read wait to be merged: bounded too.
      const unmerged = this.nextIndex - this.nextMerged;
      if (thread.inFlight < MAX_IN_FLIGHT && unmerged < this.threads.length * MAX_IN_FLIGHT) {
        const index = this.nextIndex++;
        const { buffer, length } = this.buffers.fill(pieces);
        this.blocks.set(index, { offset, length, buffer: null });
        thread.post({ type: 'block', block: { index, buffer, length, offset, windows1252From, final } });
        return true;
      }
      await this.changed();
    }
  }

  /**
   * Reading as blocks stopped: a block was declined, or was too long, or did not end. Unless a
   * record too long stopped reading, the rest is read in this thread as extractCsv reads it, from
   * the first block not described (held here still) or else from `offset`, where `pending` starts;
   * its figures come after the blocks'.
   */
  async readRestAsText(chunks: Rereadable, offset: number, pending: Buffer[], decoder: TextChunkDecoder): Promise<void> {
    await this.settle();
    if (this.trouble?.kind === 'too-long') return;
    const first = this.trouble?.index ?? this.nextIndex;
    const held = [...this.blocks.entries()]
      .filter(([index]) => index >= first)
      .sort(([a], [b]) => a - b)
      .map(([, { buffer, length }]) => Buffer.from(buffer as ArrayBuffer, 0, length));
    const from = this.trouble ? (this.blocks.get(first)?.offset as number) : offset;
    // A declined block was handed out, and so is among the held ones with the blocks after it; `pending` follows them.
    const rest = new TableBuilder(this.headers, {
      option: this.ctx.option,
      limits: this.ctx.limits,
      decimalComma: this.info.DELIMITER === ';',
      privacy: this.ctx.privacy,
      tableName: this.ctx.fileName,
      observers: this.sketchBudget === undefined ? undefined : new SketchCollector(this.sketchBudget, true),
    });
    rest.startBlock(first);
    this.trouble = { index: first, kind: 'declined' };
    const source = chunks.from([...held, ...pending]);
    this.textRead = await readCsv(source, this.ctx, {}, { info: this.info, table: rest, record: this.merger.records, offset: from, decoder });
    const block = rest.takeBlock();
    if (block.longRows > 0) block.firstLongRow -= this.merger.records; // readCsv numbered the records in the file
    this.merger.add(block, 0);
    this.merger.addDistinct(rest.distinctStates());
    const sketch = rest.sketchState();
    if (sketch) this.table.mergeSketches(sketch);
  }

  /** Once every block handed out is back: whether one was declined. */
  async declined(): Promise<boolean> {
    await this.settle();
    return this.trouble?.kind === 'declined';
  }

  /** Every block described and merged, every thread's counts taken in: what readCsv would have read. */
  async finish(bytes: number, decoder: TextChunkDecoder): Promise<CsvRead> {
    await this.settle();
    for (const thread of this.threads) thread.post({ type: 'end' });
    while (!this.threads.every((t) => t.done)) await this.changed();
    for (const thread of this.threads) {
      const done = thread.done as Extract<FromCsvThread, { type: 'done' }>;
      this.merger.addDistinct(done.distinct);
      if (done.sketch) this.table.mergeSketches(done.sketch);
    }
    this.table.adoptMerged(this.merger);
    const errors: string[] = [];
    const problem = decoder.problem() ?? this.textRead?.errors.find((e) => e.startsWith('Invalid UTF-8'));
    if (problem) errors.push(problem);
    const stopped = this.stopped ?? this.textRead?.stopped ?? null;
    if (this.stopped) errors.push(this.stopped);
    errors.push(...(this.textRead?.errors.filter((e) => !e.startsWith('Invalid UTF-8')) ?? []));
    const info = { ...this.info, ENCODING: this.textRead?.info.ENCODING ?? decoder.encoding };
    return { info, table: this.table, stopped, errors, bytes };
  }

  /** The threads are kept for the next file when they answered all of this one, else ended. */
  async stop(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.release()));
  }

  /** Waits until every block handed out has come back and the described ones are merged. */
  private async settle(): Promise<void> {
    while (this.threads.some((t) => t.inFlight > 0)) await this.changed();
    this.check();
  }

  private receive(thread: CsvThread, message: FromCsvThread): void {
    if (message.type === 'failed') return this.fail(revived(message.error));
    if (message.type === 'done') thread.done = message;
    else {
      thread.inFlight--;
      const block = this.blocks.get(message.outcome.index);
      if (block) block.buffer = message.outcome.buffer;
      this.outcomes.set(message.outcome.index, message.outcome);
      this.mergeInOrder();
    }
    this.notify();
  }

  /** Merges the described blocks that come next in file order; stops at the first troubled one. */
  private mergeInOrder(): void {
    for (let outcome = this.outcomes.get(this.nextMerged); outcome && !this.trouble; outcome = this.outcomes.get(this.nextMerged)) {
      this.outcomes.delete(this.nextMerged);
      if (outcome.kind === 'described') {
        this.merger.add(outcome.table, outcome.records);
        this.blocks.delete(this.nextMerged);
        this.buffers.release(outcome.buffer);
        this.nextMerged++;
        continue;
      }
      this.trouble = { index: outcome.index, kind: outcome.kind };
      if (outcome.kind === 'too-long') {
        this.stopped = `Stopped at record ${this.merger.records + 1}: a record longer than ${this.ctx.limits.maxLineBytes} characters (maxLineBytes), or an unclosed quote`;
      }
    }
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.notify();
  }

  private check(): void {
    if (this.failure) throw this.failure;
  }

  private changed(): Promise<void> {
    return new Promise((resolve) => (this.wake = resolve));
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
