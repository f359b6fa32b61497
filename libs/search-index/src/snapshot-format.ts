/**
 * The frames of a binary snapshot (memory-snapshot-codec.ts writes and reads them): each frame is its byte
 * length (a little-endian float64), its bytes and padding to 8 bytes, so a reader takes typed arrays
 * as views of the one buffer it loaded instead of copying them. Writers yield pieces lazily: what
 * is written is produced a few megabytes at a time, never as one copy of the whole.
 */
const ALIGN = 8;
const PADDING = new Uint8Array(ALIGN);
/** Strings go in blocks of this many: each block its lengths, then its text as UTF-8. */
const STRING_BLOCK = 8192;

export class SnapshotFormatError extends Error {}

type Numbers = Int32Array | Float64Array | Uint8Array | Uint32Array;

export const bytesOf = (array: Numbers): Uint8Array => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);

/** One frame of `byteLength` bytes made of the pieces. */
export function* frame(byteLength: number, pieces: Iterable<Uint8Array>): Generator<Uint8Array> {
  const header = new Uint8Array(ALIGN);
  new DataView(header.buffer).setFloat64(0, byteLength, true);
  yield header;
  let written = 0;
  for (const piece of pieces) {
    written += piece.byteLength;
    yield piece;
  }
  if (written !== byteLength) throw new SnapshotFormatError(`frame of ${byteLength} bytes got ${written}`);
  const pad = (ALIGN - (byteLength % ALIGN)) % ALIGN;
  if (pad > 0) yield PADDING.subarray(0, pad);
}

export function arrayFrame(array: Numbers): Generator<Uint8Array> {
  return frame(array.byteLength, [bytesOf(array)]);
}

/** `count` strings (or nulls) in blocks: the block's lengths in UTF-16 units (-1 for null), then its text. */
export function* stringFrames(count: number, strings: Iterable<string | null>): Generator<Uint8Array> {
  const iterator = strings[Symbol.iterator]();
  for (let start = 0; start < count; start += STRING_BLOCK) {
    const lengths = new Int32Array(Math.min(STRING_BLOCK, count - start));
    const texts: string[] = [];
    for (let i = 0; i < lengths.length; i++) {
      const next = iterator.next();
      if (next.done) throw new SnapshotFormatError(`${count} strings expected, ${start + i} given`);
      lengths[i] = next.value === null ? -1 : next.value.length;
      if (next.value !== null) texts.push(next.value);
    }
    yield* arrayFrame(lengths);
    const text = Buffer.from(texts.join(''), 'utf8');
    yield* frame(text.byteLength, [text]);
  }
}

/** Reads frames in the order they were written; typed arrays are views of the buffer (kept alive by them). */
export class FrameReader {
  private offset = 0;
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    if (bytes.byteOffset % ALIGN !== 0) throw new SnapshotFormatError('snapshot buffer not aligned');
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get done(): boolean {
    return this.offset === this.bytes.byteLength;
  }

  next(): Uint8Array {
    if (this.offset + ALIGN > this.bytes.byteLength) throw new SnapshotFormatError('snapshot ends early');
    const length = this.view.getFloat64(this.offset, true);
    const start = this.offset + ALIGN;
    if (!Number.isInteger(length) || length < 0 || start + length > this.bytes.byteLength) throw new SnapshotFormatError('snapshot frame out of bounds');
    this.offset = start + length + ((ALIGN - (length % ALIGN)) % ALIGN);
    return this.bytes.subarray(start, start + length);
  }

  int32s(expected?: number): Int32Array {
    return this.typed(Int32Array, expected);
  }

  uint32s(expected?: number): Uint32Array {
    return this.typed(Uint32Array, expected);
  }

  float64s(expected?: number): Float64Array {
    return this.typed(Float64Array, expected);
  }

  uint8s(expected?: number): Uint8Array {
    return this.typed(Uint8Array, expected);
  }

  strings(count: number): (string | null)[] {
    const strings: (string | null)[] = new Array(count);
    for (let start = 0; start < count; start += STRING_BLOCK) {
      const lengths = this.int32s(Math.min(STRING_BLOCK, count - start));
      const bytes = this.next();
      const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
      let at = 0;
      for (let i = 0; i < lengths.length; i++) {
        const length = lengths[i];
        if (length < 0) strings[start + i] = null;
        else strings[start + i] = text.slice(at, (at += length));
      }
      if (at !== text.length) throw new SnapshotFormatError('snapshot strings do not add up');
    }
    return strings;
  }

  private typed<T extends Numbers>(
    Type: { new (buffer: ArrayBufferLike, offset: number, length: number): T; BYTES_PER_ELEMENT: number },
    expected?: number,
  ): T {
    const bytes = this.next();
    const length = bytes.byteLength / Type.BYTES_PER_ELEMENT;
    if (!Number.isInteger(length) || (expected !== undefined && length !== expected))
      throw new SnapshotFormatError(`snapshot frame of ${length} entries, ${expected} expected`);
    return new Type(bytes.buffer, bytes.byteOffset, length);
  }
}
