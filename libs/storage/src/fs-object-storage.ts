import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ObjectNotFoundError } from './errors';
import { checkAnnouncedSize, MeteringStream } from './metering-stream';
import { assertValidObjectKey, assertValidPrefix, RESERVED_SEGMENT_PREFIX } from './object-key';
import { DEFAULT_CONTENT_TYPE, ObjectStat, ObjectStorage, PutObjectOptions, PutObjectResult, SignedDownloadUrlOptions } from './object-storage';
import { SIGNED_DOWNLOAD_PATH, SignedLinkSigner } from './signed-link-signer';

/**
 * Bytes per chunk an object is read in (Node's default is 64 KiB): a reader passing chunks on to
 * another thread (the catalogue's extraction) pays per chunk, a quarter as often this way.
 */
const READ_CHUNK_BYTES = 256 * 1024;

export interface FsObjectStorageOptions {
  /** Directory holding the objects; created when missing. */
  rootDir: string;
  /** Origin (and optional path prefix) browsers reach the gateway at, e.g. http://localhost:3000. */
  publicBaseUrl: string;
  /** Signs the download tokens; the download route verifies them with the same secret. */
  signer: SignedLinkSigner;
}

interface Metadata {
  contentType?: string;
}

/** Folder, beside the objects, of the writes under way: `<name>.<16 hex>` (and `.meta` for the content type). */
const PARTIAL_DIR = `${RESERVED_SEGMENT_PREFIX}partial`;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Objects as plain files under rootDir (embedded mode). Each object is written to a temporary file
 * in a reserved folder beside its final path and renamed into place once complete, so a crash
 * never leaves a half-written object under a real key; delete(key) also removes such a partial
 * write of the key (what a crash mid-upload leaves behind). Content types live in a small sidecar
 * file. The temporary and sidecar names start with RESERVED_SEGMENT_PREFIX, which keys may not use.
 */
export class FsObjectStorage extends ObjectStorage {
  private readonly root: string;
  private readonly publicBaseUrl: string;
  private readonly signer: SignedLinkSigner;

  constructor(options: FsObjectStorageOptions) {
    super();
    this.root = resolve(options.rootDir);
    this.publicBaseUrl = options.publicBaseUrl.replace(/\/+$/, '');
    this.signer = options.signer;
  }

  async put(key: string, body: Readable, options: PutObjectOptions = {}): Promise<PutObjectResult> {
    let target: string;
    try {
      target = this.pathOf(key);
      checkAnnouncedSize(key, options);
    } catch (error) {
      body.destroy();
      throw error;
    }
    const partials = join(dirname(target), PARTIAL_DIR);
    await mkdir(partials, { recursive: true });
    const temp = join(partials, `${basename(target)}.${randomBytes(8).toString('hex')}`);
    const metaTemp = `${temp}.meta`;
    const meter = new MeteringStream(key, options);
    try {
      // flush: fsync before close, so the rename below never publishes data still in the page cache.
      await pipeline(body, meter, createWriteStream(temp, { flags: 'wx', flush: true }));
      if (options.contentType) {
        await writeFile(metaTemp, JSON.stringify({ contentType: options.contentType } satisfies Metadata), { flag: 'wx', flush: true });
        await rename(metaTemp, this.metaPathOf(target));
      } else {
        await rm(this.metaPathOf(target), { force: true });
      }
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      await rm(metaTemp, { force: true });
      throw meter.limitError ?? error;
    }
    return { key, size: meter.byteCount, checksum: meter.checksum };
  }

  async get(key: string): Promise<Readable> {
    const path = this.pathOf(key);
    let handle;
    try {
      handle = await open(path, 'r');
    } catch (error) {
      throw this.notFoundOr(key, error);
    }
    const info = await handle.stat();
    if (!info.isFile()) {
      await handle.close();
      throw new ObjectNotFoundError(key);
    }
    return handle.createReadStream({ highWaterMark: READ_CHUNK_BYTES });
  }

  async stat(key: string): Promise<ObjectStat | null> {
    const path = this.pathOf(key);
    try {
      const info = await stat(path);
      if (!info.isFile()) return null;
      const meta = await this.readMetadata(path);
      return { size: info.size, contentType: meta.contentType ?? DEFAULT_CONTENT_TYPE };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    const path = this.pathOf(key);
    await this.deletePartials(path);
    try {
      const info = await stat(path);
      if (!info.isFile()) return;
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    await rm(path, { force: true });
    await rm(this.metaPathOf(path), { force: true });
  }

  /** Writes and removes a probe file (a reserved name, so list() never shows it). */
  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    const probe = join(this.root, `${RESERVED_SEGMENT_PREFIX}probe-${randomBytes(8).toString('hex')}`);
    await writeFile(probe, '');
    await rm(probe, { force: true });
  }

  async *list(prefix: string): AsyncIterable<string> {
    assertValidPrefix(prefix);
    // Start the walk at the deepest directory the prefix names, then filter by the full prefix.
    const slash = prefix.lastIndexOf('/');
    const startDir = slash >= 0 ? join(this.root, prefix.slice(0, slash)) : this.root;
    for await (const key of this.walk(startDir)) {
      if (key.startsWith(prefix)) yield key;
    }
  }

  async signedDownloadUrl(key: string, options: SignedDownloadUrlOptions): Promise<string> {
    assertValidObjectKey(key);
    const token = this.signer.sign(key, options);
    return `${this.publicBaseUrl}${SIGNED_DOWNLOAD_PATH}?token=${encodeURIComponent(token)}`;
  }

  private async *walk(directory: string): AsyncIterable<string> {
    let entries;
    try {
      entries = await readdir(directory, { withFileTypes: true });
    } catch (error) {
      if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return;
      throw error;
    }
    for (const entry of entries) {
      if (entry.name.startsWith(RESERVED_SEGMENT_PREFIX)) continue;
      const path = join(directory, entry.name);
      if (entry.isDirectory()) yield* this.walk(path);
      else if (entry.isFile()) yield relative(this.root, path).split(sep).join('/');
    }
  }

  /** Validates the key and maps it to a path that is guaranteed to stay under the root. */
  private pathOf(key: string): string {
    assertValidObjectKey(key);
    const path = resolve(this.root, ...key.split('/'));
    if (!path.startsWith(this.root + sep)) throw new Error(`Key escapes the storage root: ${key}`);
    return path;
  }

  /** Temporary files of writes of this path that never finished (the process died mid-way). */
  private async deletePartials(objectPath: string): Promise<void> {
    const folder = join(dirname(objectPath), PARTIAL_DIR);
    const mine = new RegExp(`^${escapeRegExp(basename(objectPath))}\\.[0-9a-f]{16}(\\.meta)?$`);
    let names: string[];
    try {
      names = await readdir(folder);
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    await Promise.all(names.filter((name) => mine.test(name)).map((name) => rm(join(folder, name), { force: true })));
  }

  private metaPathOf(objectPath: string): string {
    return join(dirname(objectPath), `${RESERVED_SEGMENT_PREFIX}meta-${basename(objectPath)}.json`);
  }

  private async readMetadata(objectPath: string): Promise<Metadata> {
    try {
      return JSON.parse(await readFile(this.metaPathOf(objectPath), 'utf8')) as Metadata;
    } catch (error) {
      if (isMissing(error)) return {};
      throw error;
    }
  }

  private notFoundOr(key: string, error: unknown): unknown {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR' ? new ObjectNotFoundError(key, { cause: error }) : error;
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
