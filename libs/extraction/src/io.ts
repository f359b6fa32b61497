// Reading input streams: text decoding with a Windows-1252 fallback for bytes that are not UTF-8,
// byte counting, and whole-buffer reads bounded by a limit (for formats that need random access).
import { isUtf8 } from 'node:buffer';
import type { Readable } from 'node:stream';
import { CorruptFileError, ExtractionLimitError } from './errors';

/** Length of the prefix of `bytes` that does not end inside a UTF-8 sequence. */
export function completeUtf8Length(bytes: Uint8Array): number {
  let i = bytes.length - 1;
  let back = 0;
  while (i >= 0 && back < 3 && (bytes[i] & 0xc0) === 0x80) {
    i--;
    back++;
  }
  if (i < 0) return bytes.length;
  const lead = bytes[i];
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return bytes.length - i >= need ? bytes.length : i;
}

/** Index of the first byte that does not start a valid UTF-8 sequence (bytes.length when all are valid). */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i];
    if (lead < 0x80) {
      i++;
      continue;
    }
    const need = lead >= 0xc2 && lead <= 0xdf ? 1 : lead >= 0xe0 && lead <= 0xef ? 2 : lead >= 0xf0 && lead <= 0xf4 ? 3 : 0;
    if (need === 0 || i + need >= bytes.length) return i;
    let cp = lead & (need === 1 ? 0x1f : need === 2 ? 0x0f : 0x07);
    for (let k = 1; k <= need; k++) {
      if ((bytes[i + k] & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (bytes[i + k] & 0x3f);
    }
    if (cp < [0, 0x80, 0x800, 0x10000][need] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return bytes.length;
}

/**
 * Decodes chunks to text. Starts as UTF-8 (or UTF-16 when a BOM says so); at the first byte sequence
 * that is not UTF-8 it switches to Windows-1252 (a superset of Latin-1) for the rest of the stream
 * and records where, so a Latin-1 file is still read and the result says why its text may be off.
 */
export class TextChunkDecoder {
  encoding = 'utf-8';
  invalidAt: number | null = null;
  private decoder: InstanceType<typeof TextDecoder> = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  private pending: Uint8Array = new Uint8Array(0);
  private offset = 0;
  private started = false;
  private bomSkipped = 0;

  decode(chunk: Uint8Array): string {
    let bytes = chunk;
    if (!this.started) {
      this.started = true;
      bytes = this.sniffBom(bytes);
    }
    if (this.encoding !== 'utf-8') return this.decoder.decode(bytes, { stream: true });
    return this.decodeUtf8(this.wholeCharacters(bytes));
  }

  /** The bytes held back and the chunk, up to the last whole UTF-8 character; the rest is held back for the next chunk. */
  private wholeCharacters(chunk: Uint8Array): Uint8Array {
    let bytes = chunk;
    if (this.pending.length) {
      const joined = new Uint8Array(this.pending.length + bytes.length);
      joined.set(this.pending);
      joined.set(bytes, this.pending.length);
      bytes = joined;
    }
    const complete = completeUtf8Length(bytes);
    this.pending = bytes.slice(complete);
    return bytes.subarray(0, complete);
  }

  end(): string {
    if (this.encoding !== 'utf-8') return this.decoder.decode();
    const rest = this.pending;
    this.pending = new Uint8Array(0);
    return rest.length ? this.decodeUtf8(rest) : '';
  }

  /**
   * What decode() does to its state, without making the text when the bytes are valid UTF-8 (for a
   * reader that reads the bytes themselves): the offset moves on, and at the first byte that is not
   * UTF-8 the decoder switches to Windows-1252 exactly as decode() would.
   */
  advance(chunk: Uint8Array): void {
    if (!this.started) {
      this.decode(chunk);
      return;
    }
    if (this.encoding !== 'utf-8') return; // Windows-1252 keeps no state; UTF-16 is never read as bytes
    const whole = this.wholeCharacters(chunk);
    if (isUtf8(whole)) this.offset += whole.length;
    else this.decodeUtf8(whole);
  }

  /** end(), as advance() is to decode(). */
  advanceEnd(): void {
    if (this.encoding !== 'utf-8' || this.pending.length === 0) {
      this.end();
      return;
    }
    const rest = this.pending;
    this.pending = new Uint8Array(0);
    if (isUtf8(rest)) this.offset += rest.length;
    else this.decodeUtf8(rest);
  }

  /** The stream offset from which the text is read as Windows-1252 (Infinity while it is UTF-8). */
  get windows1252From(): number {
    return this.encoding === 'windows-1252' && this.invalidAt !== null ? this.invalidAt : Infinity;
  }

  /** Bytes of a UTF-8 byte order mark skipped at the start (0 or 3). */
  get bomLength(): number {
    return this.bomSkipped;
  }

  /**
   * A decoder that goes on from stream offset `offset` (a record start) where `from` has been: in
   * UTF-8 if that offset comes before `from` found invalid bytes (it will find them again), else in
   * Windows-1252.
   */
  static resumeAt(offset: number, from: TextChunkDecoder): TextChunkDecoder {
    const decoder = new TextChunkDecoder();
    decoder.started = true;
    decoder.offset = offset;
    decoder.bomSkipped = from.bomSkipped;
    if (offset >= from.windows1252From) {
      decoder.encoding = 'windows-1252';
      decoder.invalidAt = from.invalidAt;
      decoder.decoder = new TextDecoder('windows-1252');
    }
    return decoder;
  }

  /** A sentence for ERRORS when the text was not valid UTF-8, else null. */
  problem(): string | null {
    return this.invalidAt === null ? null : `Invalid UTF-8 at byte ${this.invalidAt}: the text from there on was read as Windows-1252 (Latin-1)`;
  }

  private decodeUtf8(bytes: Uint8Array): string {
    try {
      const text = this.decoder.decode(bytes);
      this.offset += bytes.length;
      return text;
    } catch {
      // Keep the valid prefix as UTF-8 and say where the first bad byte is.
      const good = firstInvalidUtf8(bytes);
      const prefix = good > 0 ? this.decoder.decode(bytes.subarray(0, good)) : '';
      this.invalidAt = this.offset + good;
      this.encoding = 'windows-1252';
      this.decoder = new TextDecoder('windows-1252');
      // The bytes held back as an unfinished UTF-8 sequence are Windows-1252 characters now.
      const held = this.pending;
      this.pending = new Uint8Array(0);
      return prefix + this.decoder.decode(bytes.subarray(good), { stream: true }) + this.decoder.decode(held, { stream: true });
    }
  }

  private sniffBom(bytes: Uint8Array): Uint8Array {
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
      this.offset = this.bomSkipped = 3;
      return bytes.subarray(3);
    }
    if (bytes[0] === 0xff && bytes[1] === 0xfe) return this.useUtf16('utf-16le', bytes);
    if (bytes[0] === 0xfe && bytes[1] === 0xff) return this.useUtf16('utf-16be', bytes);
    return bytes;
  }

  private useUtf16(encoding: 'utf-16le' | 'utf-16be', bytes: Uint8Array): Uint8Array {
    this.encoding = encoding;
    this.decoder = new TextDecoder(encoding, { ignoreBOM: false });
    return bytes;
  }
}

/** NUL bytes in the first 4 KiB of a file without a UTF-16 BOM: binary data, not text. */
export function isBinary(first: Uint8Array): boolean {
  const utf16 = (first[0] === 0xff && first[1] === 0xfe) || (first[0] === 0xfe && first[1] === 0xff);
  return !utf16 && first.subarray(0, 4096).includes(0);
}

export function toBytes(chunk: unknown): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  throw new TypeError('extraction streams must yield bytes');
}

/**
 * Reads the whole stream into memory, refusing more than `max` bytes (the stream is destroyed then).
 * `what` names the limit in the message.
 */
async function readAll(stream: Readable, max: number, what: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const bytes = toBytes(chunk);
    total += bytes.length;
    if (total > max) {
      stream.destroy();
      throw new ExtractionLimitError(`The file is larger than ${max} bytes (${what}): it was not read further`);
    }
    chunks.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }
  return Buffer.concat(chunks, total);
}

/**
 * A file its format makes read whole (random access): refused when its size, as given or as read, is
 * over the limit `limit` of `max` bytes; an empty file is corrupt. `files` names such files in the
 * messages ("documents", "PDFs").
 */
export async function readInMemory(stream: Readable, size: number | undefined, max: number, limit: string, files: string): Promise<Buffer> {
  if (size !== undefined && size > max) {
    stream.destroy();
    throw new ExtractionLimitError(
      `${files[0].toUpperCase()}${files.slice(1)} are read in memory and this one is larger than ${max} bytes (${limit}): not extracted`,
    );
  }
  const buffer = await readAll(stream, max, `${limit}: ${files} are read in memory`);
  if (buffer.length === 0) throw new CorruptFileError('The file is empty');
  return buffer;
}

/**
 * Lets the event loop run between chunks of CPU-heavy work: a stream whose chunks are already
 * buffered hands them over in microtasks, so without this a large file would hold the thread (and a
 * server's HTTP requests) until its buffer ran dry. Yields when `sliceMs` have passed since the last time.
 */
export class EventLoopYield {
  private last = performance.now();

  constructor(private readonly sliceMs = 10) {}

  async maybe(): Promise<void> {
    if (performance.now() - this.last < this.sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.last = performance.now();
  }
}
