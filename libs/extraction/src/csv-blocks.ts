// Blocks of whole records for the CSV threads (csv-threads.ts): where a block ends, and how a thread
// describes one. A block ends at the first line end at least blockBytes after its start that is not
// inside a quoted field, found by counting quotes from the data's start (native searches, so it
// costs next to nothing where quotes are rare). The cuts depend only on the file's bytes, not on how
// the stream was chunked or how many threads read it. Counting quotes is exact for the text the byte
// reader accepts (a quote only opens or closes a field, or is doubled inside one); where a text is
// not of that kind, the byte reader declines the block, which is then read another way.
import { ByteCells, ByteRecords, readByteRecords } from './csv-bytes';
import type { TableBlock, TableBuilder } from './table';
import type { CsvInfo } from './types';

const QUOTE = 34;

/** Finds where blocks end, fed the stream's bytes in order from the start of the data. */
export class BlockCutter {
  private inQuotes = false;
  /** Stream offset from which the next line end (outside quotes) ends a block. */
  private nextCut: number;

  constructor(
    /** The byte that ends a line: LF ("\n" and "\r\n" files) or CR ("\r" files). */
    private readonly lineEnd: number,
    start: number,
    private readonly blockBytes: number,
  ) {
    this.nextCut = start + blockBytes;
  }

  /** The stream offsets at which blocks end in `chunk` (just after a line end), which starts at stream offset `at`. */
  cuts(chunk: Buffer, at: number): number[] {
    const cuts: number[] = [];
    let pos = 0;
    while (pos < chunk.length) {
      const from = Math.max(pos, this.nextCut - at);
      if (from >= chunk.length) {
        this.countQuotes(chunk, pos, chunk.length);
        break;
      }
      this.countQuotes(chunk, pos, from);
      pos = from;
      // The first line end from here outside quotes.
      for (;;) {
        const quote = chunk.indexOf(QUOTE, pos);
        const line = chunk.indexOf(this.lineEnd, pos);
        if (line !== -1 && (quote === -1 || line < quote)) {
          if (!this.inQuotes) {
            cuts.push(at + line + 1);
            this.nextCut = at + line + 1 + this.blockBytes;
            pos = line + 1;
            break;
          }
          pos = line + 1; // a line end inside a quoted field
          continue;
        }
        if (quote === -1) {
          pos = chunk.length;
          break;
        }
        this.inQuotes = !this.inQuotes;
        pos = quote + 1;
      }
    }
    return cuts;
  }

  private countQuotes(chunk: Buffer, from: number, to: number): void {
    for (let q = chunk.indexOf(QUOTE, from); q !== -1 && q < to; q = chunk.indexOf(QUOTE, q + 1)) this.inQuotes = !this.inQuotes;
  }
}

/** One block as a thread is given it. */
export interface CsvBlock {
  /** The block's place in the file, from 0. */
  index: number;
  /** The block's bytes are the first `length` of this buffer (handed over, and back, without a copy). */
  buffer: ArrayBuffer;
  length: number;
  /** Stream offset of the block's first byte. */
  offset: number;
  /** Stream offset from which the text is Windows-1252 (Infinity: UTF-8 throughout). */
  windows1252From: number;
  /** The last block: its last record may end without a line end. */
  final: boolean;
}

/** What describing a block came to (with the block's buffer, handed back). */
export type BlockOutcome = { index: number; buffer: ArrayBuffer } & (
  | { kind: 'described'; records: number; table: TableBlock }
  /** The byte reader declines a record of the block: it is to be read as text from the block's start. */
  | { kind: 'declined' }
  /** A record longer than maxLineBytes: reading stops before the block, as it stops before a chunk. */
  | { kind: 'too-long' }
);

/**
 * Describes a block's records into `table` (`records` is reused from block to block) (which goes on from block to block: takeBlock() hands
 * over this block's figures). Record numbers in the block's figures count from its first record.
 */
export function describeBlock(block: CsvBlock, table: TableBuilder, csv: CsvInfo, maxLineBytes: number, records: ByteRecords): BlockOutcome {
  const { index, buffer } = block;
  const bytes = Buffer.from(buffer, 0, block.length);
  const read = readByteRecords(bytes, 0, bytes.length, csv.DELIMITER.charCodeAt(0), csv.LINE_ENDING, block.final, records);
  // A block that does not end where its last record ends was cut inside a quoted field.
  if (!read || (!block.final && records.end !== bytes.length)) return { index, buffer, kind: 'declined' };
  const cells = new ByteCells(bytes, records, block.offset, block.windows1252From);
  for (let r = 0; r < records.count; r++) {
    const { recordStart, recordEnd } = records;
    if (recordEnd[r] - recordStart[r] > maxLineBytes && cells.textLength(recordStart[r], recordEnd[r], true) > maxLineBytes)
      return { index, buffer, kind: 'too-long' };
  }
  table.startBlock(index);
  for (let r = 0; r < records.count; r++) if (!cells.isBlank(r)) table.addByteRow(cells, r, r + 1);
  return { index, buffer, kind: 'described', records: records.count, table: table.takeBlock() };
}
