import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { endianness, tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  type CellObserver,
  type CellValue,
  CLK_PATTERN,
  clkFilter,
  type ColumnPolicy,
  extractMetadata,
  normalisedValue,
  readAsciiText,
  readAsciiValueHash,
  type TableObserver,
  type TableObserverFactory,
  valueHash,
} from '@dc/extraction';
import { listAll, ObjectStorage } from '@dc/storage';
import type { IndexableFile } from './row-index.repository';
import {
  CLK_BYTES,
  type IndexedColumn,
  type PlannedColumn,
  plannedColumns,
  rowIndexKey,
  rowIndexPrefix,
  type RowIndexBuild,
  sourcePositions,
} from './row-index';

/** Rows buffered per column before they go to the column's temporary file (256 KiB). */
const CHUNK_ROWS = 64 * 1024;

/** One column's row hashes on their way to a temporary file: memory stays flat whatever the file's size. */
class ColumnSpool {
  private readonly chunk = new Uint32Array(CHUNK_ROWS);
  private filled = 0;
  rows = 0;

  constructor(
    readonly planned: PlannedColumn,
    readonly file: string,
    private readonly fd: number,
  ) {}

  add(hash: number): void {
    this.chunk[this.filled++] = hash;
    this.rows++;
    if (this.filled === CHUNK_ROWS) this.flush();
  }

  flush(): void {
    if (this.filled > 0) writeSync(this.fd, new Uint8Array(this.chunk.buffer, 0, this.filled * 4));
    this.filled = 0;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

/** One CLK column's filters on their way to a temporary file, CLK_BYTES per row. */
class ClkSpool {
  private readonly chunk = new Uint8Array((CHUNK_ROWS / 32) * CLK_BYTES);
  private filled = 0;

  constructor(
    readonly file: string,
    private readonly fd: number,
  ) {}

  /** A row's filter; null (missing) leaves it empty. */
  add(filter: Uint8Array | null): void {
    if (filter) this.chunk.set(filter.subarray(0, CLK_BYTES), this.filled);
    else this.chunk.fill(0, this.filled, this.filled + CLK_BYTES);
    this.filled += CLK_BYTES;
    if (this.filled === this.chunk.length) this.flush();
  }

  flush(): void {
    if (this.filled > 0) writeSync(this.fd, this.chunk, 0, this.filled);
    this.filled = 0;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

/**
 * The filter of a fuzzy column's cell: a privately indexed file holds the CLK the browser made
 * under the linkage key; an upload the server hashed holds the raw value, whose key the product
 * did not keep, so it is encoded under the index's own key (comparable with other such uploads).
 */
const INDEX_CLK_KEY = 'data-catalogue row index clk';
const clkOfCell = (text: string): Uint8Array => (CLK_PATTERN.test(text) ? Buffer.from(text, 'base64') : clkFilter(INDEX_CLK_KEY, text));

/** One planned column's cells, hashed into its spool (and its CLK spool), from text or from the bytes the statistics read. */
export class ColumnHasher implements CellObserver {
  constructor(
    readonly spool: ColumnSpool,
    readonly clk: ClkSpool | undefined,
    private readonly policy: ColumnPolicy | undefined,
  ) {}

  add(value: CellValue): void {
    const text = normalisedValue(value, this.policy);
    // 0 marks a missing value; a real hash of 0 is moved to 1 (a one-in-four-billion shift).
    this.spool.add(text === null ? 0 : valueHash(text) || 1);
    // The cell as written (normalisedValue lower-cases text, which a CLK's base64 must not be).
    this.clk?.add(text === null ? null : clkOfCell(String(value).trim()));
  }

  /**
   * An ASCII cell, hashed from its bytes as add() hashes its text (readAsciiValueHash). The re-read
   * has no privacy choices, so every column is plain to it: a CLK column's cells come here too.
   */
  addReadAscii(bytes: Uint8Array): void {
    const hash = readAsciiValueHash(bytes);
    this.spool.add(Number.isNaN(hash) ? 0 : hash || 1);
    if (this.clk) {
      const text = readAsciiText(bytes);
      this.clk.add(text === null ? null : clkOfCell(text));
    }
  }

  flush(): void {
    this.spool.flush();
    this.clk?.flush();
  }

  close(): void {
    this.spool.close();
    this.clk?.close();
  }
}

/**
 * Spools one value hash per row of the planned columns of each sketched table, as extraction reads
 * them: cell by cell where the CSV is read as bytes (no row is made into strings: about five times
 * less work), else row by row.
 */
class RowHashSpooler implements TableObserverFactory {
  readonly hashers: ColumnHasher[] = [];
  private nextTable = 0;

  constructor(
    private readonly file: IndexableFile,
    private readonly planned: PlannedColumn[],
    private readonly dir: string,
  ) {}

  openTable(name: string, headers: string[], policies: ColumnPolicy[]): TableObserver | undefined {
    // The sketch holds the tables extraction sketched, in order; others (past its column budget) are skipped.
    const table = this.nextTable;
    if (this.file.tables[table]?.name !== name) return undefined;
    this.nextTable++;
    const planned = this.planned.filter((c) => c.table === table);
    const positions = sourcePositions(planned, headers);
    const hashers = planned.map((c, i) => {
      const file = path.join(this.dir, `t${c.table}-c${c.column}-${i}`);
      const spool = new ColumnSpool(c, file, openSync(file, 'w'));
      const clk = c.clk ? new ClkSpool(`${file}-clk`, openSync(`${file}-clk`, 'w')) : undefined;
      const hasher = new ColumnHasher(spool, clk, policies[positions[i]]);
      this.hashers.push(hasher);
      return hasher;
    });
    const bySource = new Map(positions.map((source, i) => [source, hashers[i]]));
    const finish = () => hashers.forEach((h) => h.flush());
    const observer: TableObserver = {
      addRow: (cells) => {
        for (let i = 0; i < hashers.length; i++) {
          const source = positions[i];
          hashers[i].add(source >= 0 && source < cells.length ? cells[source] : null);
        }
      },
      finish,
    };
    // Cell by cell only when every planned column is among the headers: a column not found gets a missing value on every row.
    if (positions.every((source) => source >= 0)) observer.cellObserver = (source) => bySource.get(source);
    return observer;
  }
}

/**
 * Builds the row-hash index of a stored file: reads it once through the ObjectStorage port with
 * the extraction library, spools each linkable column's row hashes to a temporary file and stores
 * it as an object of its own. Hashed columns are read as stored (docs/private-linkage.md): a
 * privately indexed file holds their keyed hashes already; an upload the server hashed holds raw
 * values whose linkage key the product does not keep, so only their 32-bit value hashes are kept.
 * Which columns pair up is decided on the sketches, made from keyed hashes at extraction.
 */
@Injectable()
export class RowIndexBuilder {
  constructor(private readonly storage: ObjectStorage) {
    // The objects are the platform's uint32s; every platform Node runs on here is little-endian.
    if (endianness() !== 'LE') throw new Error('row-hash indexes need a little-endian platform');
  }

  /** Reads the file and stores its index under `buildId`; nothing is left behind when it fails. */
  async build(file: IndexableFile, signal?: AbortSignal, buildId: string = randomUUID()): Promise<RowIndexBuild> {
    const planned = plannedColumns(file.tables);
    // Nothing to link on (every column masked or empty): no need to read the file.
    if (planned.length === 0) return { buildId, fileId: file.fileId, columns: [] };
    const dir = await mkdtemp(path.join(tmpdir(), 'dc-row-index-'));
    const spooler = new RowHashSpooler(file, planned, dir);
    try {
      const stream = await this.storage.get(file.storageKey);
      try {
        const meta = await extractMetadata({ stream, fileName: file.fileName }, { extractOption: 'metadata', sketches: spooler, signal });
        // A file read only in part this time must not pass for its whole index.
        if (meta.STATUS === 'failed' || meta.STATUS === 'skipped')
          throw new Error(`the file could not be read again (${meta.STATUS}: ${meta.ERRORS.join('; ').slice(0, 200)})`);
      } finally {
        stream.destroy();
        for (const hasher of spooler.hashers) hasher.close();
      }
      const columns: IndexedColumn[] = [];
      for (const { spool, clk } of spooler.hashers) {
        const { table, column, header } = spool.planned;
        const key = rowIndexKey(file.fileId, buildId, table, column);
        const bytes = await readFile(spool.file);
        await this.storage.put(key, Readable.from([bytes]), { size: bytes.length });
        const clkKey = clk ? `${key}-clk` : undefined;
        if (clk && clkKey) {
          const filters = await readFile(clk.file);
          await this.storage.put(clkKey, Readable.from([filters]), { size: filters.length });
        }
        columns.push({ table, column, header, key, rows: spool.rows, ...(clkKey && { clkKey }) });
      }
      return { buildId, fileId: file.fileId, columns };
    } catch (error) {
      await this.remove(file.fileId, buildId);
      throw error;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Deletes a build's objects (idempotent). */
  async remove(fileId: string, buildId: string): Promise<void> {
    for (const key of await listAll(this.storage, rowIndexPrefix(fileId, buildId))) await this.storage.delete(key);
  }
}
