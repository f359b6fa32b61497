// .zip archives: spooled to a temporary file (the central directory is at the end), then each member
// is streamed out with yauzl and described by its own type. Defences against zip bombs and hostile
// names: entry count, declared and actual uncompressed bytes, compression ratio, no nested
// archives, and any absolute or '..' entry name rejects the whole archive.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline, type Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline as pipelineAsync } from 'node:stream/promises';
import yauzl from 'yauzl';
import type { Extracted, ExtractorContext } from './context';
import { contentTypeOf, fileKindOf } from './detect';
import { CorruptFileError, ExtractionLimitError } from './errors';
import { toBytes } from './io';
import type { ExtractionLimits, ExtractionResult } from './types';
import { keywordsOf, TopWords } from './words';

/** Members smaller than this may have any ratio (a few KB of zeros is not a bomb). */
const RATIO_FLOOR_BYTES = 1024 * 1024;

export type MemberExtractor = (stream: Readable, name: string, size: number) => Promise<ExtractionResult>;

/** Why an entry name is unsafe (absolute, drive letter, '..' segment, NUL), or null. */
export function unsafeEntryName(name: string): string | null {
  if (name.includes('\0')) return 'a NUL character';
  if (/^[\\/]/.test(name) || /^[A-Za-z]:/.test(name)) return 'an absolute path';
  if (name.split(/[\\/]/).includes('..')) return 'a ".." path segment (path traversal)';
  return null;
}

export function entryName(entry: yauzl.Entry): string {
  const raw = entry.fileName as unknown as Buffer | string;
  if (typeof raw === 'string') return raw;
  // Bit 11: the name is UTF-8; otherwise CP437, read here as Latin-1 (same for ASCII names).
  return (entry.generalPurposeBitFlag & 0x800) !== 0 ? raw.toString('utf8') : raw.toString('latin1');
}

export function nextEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | null> {
  return new Promise((resolve, reject) => {
    const done = (): void => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    const onEntry = (entry: yauzl.Entry): void => (done(), resolve(entry));
    const onEnd = (): void => (done(), resolve(null));
    const onError = (error: Error): void => (done(), reject(error));
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}

export function openZip(open: (callback: (error: Error | null, zip?: yauzl.ZipFile) => void) => void): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    open((error, zip) => {
      if (error || !zip) return reject(new CorruptFileError(`Not a readable zip archive: ${error?.message ?? 'unknown error'}`, { cause: error }));
      zip.on('error', () => undefined); // errors are taken by nextEntry; never crash on a late one
      resolve(zip);
    }),
  );
}

export function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => (error || !stream ? reject(error ?? new Error('no stream')) : resolve(stream))),
  );
}

/** Fails the stream once more than `budget` bytes went through. */
class ByteBudget extends Transform {
  used = 0;

  constructor(
    private readonly budget: number,
    private readonly what: string,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.used += chunk.length;
    if (this.used > this.budget) callback(new ExtractionLimitError(`More than ${this.budget} bytes uncompressed (${this.what})`));
    else callback(null, chunk);
  }
}

function ratioProblem(entry: yauzl.Entry, limits: ExtractionLimits): string | null {
  if (entry.uncompressedSize <= RATIO_FLOOR_BYTES) return null;
  const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
  return ratio > limits.maxZipRatio
    ? `Compression ratio ${Math.round(ratio)}:1 is above maxZipRatio ${limits.maxZipRatio}:1 (${entry.uncompressedSize} bytes from ${entry.compressedSize}): not extracted, a possible zip bomb`
    : null;
}

/**
 * Checks a zip-based document (.xlsx, .docx) from its central directory before a library inflates
 * it: entry count, declared total size (at most maxExpandedBytes, as the library inflates in memory)
 * and ratios. Throws CorruptFileError or ExtractionLimitError.
 */
export async function checkZipDocument(buffer: Buffer, limits: ExtractionLimits, maxExpandedBytes: number): Promise<void> {
  const maxTotal = Math.min(limits.maxZipTotalBytes, maxExpandedBytes);
  const zip = await openZip((cb) => yauzl.fromBuffer(buffer, { lazyEntries: true, decodeStrings: false }, cb));
  try {
    let entries = 0;
    let total = 0;
    for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) {
      entries++;
      total += entry.uncompressedSize;
      if (entries > limits.maxZipEntries) throw new ExtractionLimitError(`More than ${limits.maxZipEntries} parts (maxZipEntries)`);
      if (total > maxTotal) throw new ExtractionLimitError(`Parts expand to more than ${maxTotal} bytes: not extracted`);
      const ratio = ratioProblem(entry, limits);
      if (ratio) throw new ExtractionLimitError(`${entryName(entry)}: ${ratio}`);
    }
  } catch (error) {
    if (error instanceof ExtractionLimitError || error instanceof CorruptFileError) throw error;
    throw new CorruptFileError(`Damaged zip container: ${(error as Error).message}`, { cause: error });
  } finally {
    zip.close();
  }
}

async function spool(stream: Readable, file: string, max: number): Promise<number> {
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: unknown, _encoding, callback) {
      const data = toBytes(chunk);
      bytes += data.length;
      if (bytes > max) callback(new ExtractionLimitError(`The archive is larger than ${max} bytes (maxArchiveBytes)`));
      else callback(null, data);
    },
  });
  await pipelineAsync(stream, counter, createWriteStream(file));
  return bytes;
}

export async function extractZip(stream: Readable, ctx: ExtractorContext, extractMember: MemberExtractor): Promise<Extracted> {
  const { limits } = ctx;
  const dir = await mkdtemp(path.join(tmpdir(), 'dc-extraction-'));
  let zip: yauzl.ZipFile | null = null;
  try {
    const file = path.join(dir, 'archive.zip');
    const bytes = await spool(stream, file, limits.maxArchiveBytes);
    if (bytes === 0) throw new CorruptFileError('The file is empty');
    zip = await openZip((cb) => yauzl.open(file, { lazyEntries: true, decodeStrings: false, autoClose: false }, cb));
    const members: ExtractionResult[] = [];
    const errors: string[] = [];
    const keywords = new TopWords(limits.maxWords * 4);
    const hashed = new Set<string>();
    let entries = 0;
    let used = 0;
    let partial = false;
    for (;;) {
      let entry: yauzl.Entry | null;
      try {
        entry = await nextEntry(zip);
      } catch (error) {
        errors.push(`The archive is damaged after ${entries} entries: ${(error as Error).message}`);
        partial = true;
        break;
      }
      if (!entry) break;
      entries++;
      if (entries > limits.maxZipEntries) {
        errors.push(`More than ${limits.maxZipEntries} entries (maxZipEntries): the rest was not read`);
        partial = true;
        break;
      }
      const name = entryName(entry);
      const unsafe = unsafeEntryName(name);
      if (unsafe) throw new ExtractionLimitError(`Entry "${name}" has ${unsafe}: the archive is rejected`);
      if (name.endsWith('/')) continue;
      const skip = (status: ExtractionResult['STATUS'], message: string): void => {
        members.push(memberStub(name, entry as yauzl.Entry, ctx, status, message));
      };
      if (entry.isEncrypted()) {
        skip('failed', 'The member is encrypted');
        continue;
      }
      if (/\.(zip|jar|7z|rar|gz|tgz|bz2|xz|tar)$/i.test(name)) {
        skip('skipped', 'Nested archives are not opened');
        continue;
      }
      const ratio = ratioProblem(entry, limits);
      if (ratio) {
        skip('failed', ratio);
        continue;
      }
      if (used + entry.uncompressedSize > limits.maxZipTotalBytes) {
        errors.push(`Members expand to more than ${limits.maxZipTotalBytes} bytes (maxZipTotalBytes): "${name}" and later members were not read`);
        partial = true;
        break;
      }
      const budget = new ByteBudget(limits.maxZipTotalBytes - used, 'maxZipTotalBytes');
      let result: ExtractionResult;
      try {
        const source = await openEntry(zip, entry);
        pipeline(source, budget, () => undefined);
        result = await extractMember(budget, name, entry.uncompressedSize);
      } catch (error) {
        result = memberStub(name, entry, ctx, 'failed', (error as Error).message);
      } finally {
        budget.destroy(); // a member read only in part (or not at all) releases its entry stream
      }
      used += Math.max(budget.used, 0);
      members.push(result);
      for (const word of result.KEYWORDS ?? []) keywords.add(word);
      for (const header of result.ENCRYPTED_COLS ?? []) hashed.add(header);
    }
    if (members.length === 0 && errors.length === 0) errors.push('The archive holds no files');
    return {
      STATUS: partial ? 'partial' : 'complete',
      MEMBERS: members,
      KEYWORDS: keywordsOf(keywords, limits.maxKeywords),
      ...(ctx.privacy && { ENCRYPTED_COLS: [...hashed] }),
      ERRORS: errors,
      bytesRead: bytes,
    };
  } finally {
    zip?.close();
    await rm(dir, { recursive: true, force: true });
  }
}

function memberStub(name: string, entry: yauzl.Entry, ctx: ExtractorContext, status: ExtractionResult['STATUS'], message: string): ExtractionResult {
  return {
    NAME: name,
    CONTENT_TYPE: contentTypeOf(name),
    SIZE: entry.uncompressedSize,
    DATE: new Date().toISOString(),
    TYPE: fileKindOf(name),
    EXTRACT_OPTION: ctx.option,
    STATUS: status,
    ERRORS: [message],
  };
}
