import { createHash, Hash } from 'node:crypto';
import { Transform, TransformCallback } from 'node:stream';
import { ObjectSizeMismatchError, ObjectTooLargeError } from './errors';

/**
 * Pass-through that counts bytes and hashes them with sha256 while they flow to the store, and
 * fails the stream the moment the body goes past maxBytes (so nothing more is read or written).
 */
export class MeteringStream extends Transform {
  // Not named `size`: lib-storage would read a `size` property as the body's total length.
  byteCount = 0;
  /** The size or limit error this stream raised, if any (a store may report a different one). */
  limitError?: ObjectTooLargeError | ObjectSizeMismatchError;
  private readonly hash: Hash = createHash('sha256');
  private digest?: string;

  constructor(
    private readonly key: string,
    private readonly limits: { maxBytes?: number; size?: number },
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.byteCount += chunk.length;
    const { maxBytes, size } = this.limits;
    if (maxBytes !== undefined && this.byteCount > maxBytes) return callback((this.limitError = new ObjectTooLargeError(this.key, maxBytes)));
    if (size !== undefined && this.byteCount > size) return callback((this.limitError = new ObjectSizeMismatchError(this.key, size, this.byteCount)));
    this.hash.update(chunk);
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    const { size } = this.limits;
    if (size !== undefined && this.byteCount !== size) return callback((this.limitError = new ObjectSizeMismatchError(this.key, size, this.byteCount)));
    this.digest = this.hash.digest('hex');
    callback();
  }

  /** sha256 hex of everything that went through; only valid once the stream has finished. */
  get checksum(): string {
    if (!this.digest) throw new Error('MeteringStream has not finished');
    return this.digest;
  }
}

/** Rejects up front when the announced size already breaks the limit, before reading anything. */
export function checkAnnouncedSize(key: string, options: { size?: number; maxBytes?: number }): void {
  const { size, maxBytes } = options;
  if (size !== undefined && (!Number.isInteger(size) || size < 0)) throw new RangeError('size must be a non-negative integer');
  if (maxBytes !== undefined && (!Number.isInteger(maxBytes) || maxBytes < 0)) throw new RangeError('maxBytes must be a non-negative integer');
  if (size !== undefined && maxBytes !== undefined && size > maxBytes) throw new ObjectTooLargeError(key, maxBytes);
}
