import { Injectable } from '@nestjs/common';
import { ObjectNotFoundError, ObjectStorage } from '@dc/storage';
import type { RecordColumn } from '../scoring/columns';
import type { LinkColumnRows } from '../scoring/row-linkage';
import { CLK_BYTES, decodeColumn } from './row-index';
import { RowIndexes } from './row-indexes';

/** Row hashes kept in memory between calls (link-rows after linkability reads nothing again). */
const CACHED_COLUMNS_BYTES = 256 * 1024 * 1024;

/**
 * One value hash per row of the columns asked for, from the file's row-hash index (a few compact
 * objects: the file itself is parsed only once, when the index is built). Columns the index left
 * out (masked) answer as missing in every row, so they link nothing.
 */
@Injectable()
export class RowReader {
  private readonly cache = new Map<string, Float64Array | Uint32Array>();
  private cachedBytes = 0;

  constructor(
    private readonly storage: ObjectStorage,
    private readonly indexes: RowIndexes,
  ) {}

  /** The rows of these columns (all of one file and table), or null when the file is no longer stored. */
  async read(columns: RecordColumn[]): Promise<LinkColumnRows[] | null> {
    const [first] = columns;
    if (!first?.storageKey) return null;
    const build = await this.indexes.ready(first.fileId);
    if (!build) return null;
    try {
      return await Promise.all(
        columns.map(async (c) => {
          const indexed = build.columns.find((i) => i.table === c.tableIndex && i.column === c.sketch.index && i.header === c.sketch.header);
          if (!indexed) return { header: c.sketch.header, hashes: new Float64Array(c.totalRows) };
          const hashes = await this.column(indexed.key);
          return indexed.clkKey ? { header: c.sketch.header, hashes, clks: await this.clks(indexed.clkKey) } : { header: c.sketch.header, hashes };
        }),
      );
    } catch (error) {
      // The build was dropped (its file changed or went away) between finding it and reading it.
      if (error instanceof ObjectNotFoundError) return null;
      throw error;
    }
  }

  private async column(key: string): Promise<Float64Array> {
    const cached = this.cache.get(key);
    if (cached instanceof Float64Array) return cached;
    const hashes = Float64Array.from(decodeColumn(await this.bytes(key)));
    this.remember(key, hashes);
    return hashes;
  }

  /** A CLK column's filters, CLK_BYTES per row, as 32-bit words. */
  private async clks(key: string): Promise<Uint32Array> {
    const cached = this.cache.get(key);
    if (cached instanceof Uint32Array) return cached;
    const bytes = await this.bytes(key);
    const filters = decodeColumn(bytes.subarray(0, bytes.length - (bytes.length % CLK_BYTES)));
    this.remember(key, filters);
    return filters;
  }

  private async bytes(key: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.storage.get(key)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  private remember(key: string, hashes: Float64Array | Uint32Array): void {
    this.cache.set(key, hashes);
    this.cachedBytes += hashes.byteLength;
    for (const [oldest, value] of this.cache) {
      if (this.cachedBytes <= CACHED_COLUMNS_BYTES || oldest === key) break;
      this.cache.delete(oldest);
      this.cachedBytes -= value.byteLength;
    }
  }
}
