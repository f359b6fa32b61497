import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { InvalidObjectKeyError, ObjectNotFoundError, ObjectTooLargeError } from './errors';
import { listAll, ObjectStorage } from './object-storage';

/** A clock the contract moves to make signed URLs that are already expired. */
export interface ContractClock {
  offsetMs: number;
  now(): number;
}

export interface ObjectStorageHarness {
  storage: ObjectStorage;
  /**
   * Follows a signed download URL the way the browser and our download route would: resolves to
   * the bytes (and the Content-Disposition offered), rejects when the link is refused.
   */
  download(url: string): Promise<{ body: Buffer; contentDisposition?: string }>;
  /** Every object or scrap the backend holds under the prefix, temporary files included. */
  leftovers(prefix: string): Promise<string[]>;
  close(): Promise<void>;
}

/** The one contract every ObjectStorage adapter passes. */
export function objectStorageContract(name: string, factory: (clock: ContractClock) => Promise<ObjectStorageHarness>): void {
  describe(`ObjectStorage contract: ${name}`, () => {
    const clock: ContractClock = { offsetMs: 0, now: () => Date.now() + clock.offsetMs };
    let harness: ObjectStorageHarness;
    let storage: ObjectStorage;
    let run = 0;
    // Every test writes under its own prefix, so tests cannot see each other's objects.
    let prefix: string;

    beforeAll(async () => {
      harness = await factory(clock);
      storage = harness.storage;
    });
    afterAll(async () => {
      await harness?.close();
    });
    beforeEach(() => {
      clock.offsetMs = 0;
      prefix = `contract-${++run}-${randomBytes(3).toString('hex')}/`;
    });

    it('round-trips a multi-megabyte stream and reports its size and sha256', async () => {
      const chunks = Array.from({ length: 12 }, (_, i) => randomBytes(512 * 1024 + i)); // ~6 MB, uneven chunks
      const expected = Buffer.concat(chunks);
      const key = `${prefix}data/big file.bin`;

      const result = await storage.put(key, Readable.from(chunks), { contentType: 'application/octet-stream' });

      expect(result).toEqual({ key, size: expected.length, checksum: sha256(expected) });
      expect(sha256(await readAll(await storage.get(key)))).toBe(sha256(expected));
      expect(await storage.stat(key)).toEqual({ size: expected.length, contentType: 'application/octet-stream' });
      expect(await storage.exists(key)).toBe(true);
    });

    it('stores an empty object', async () => {
      const result = await storage.put(`${prefix}empty`, Readable.from([]));
      expect(result).toEqual({ key: `${prefix}empty`, size: 0, checksum: sha256(Buffer.alloc(0)) });
      expect((await readAll(await storage.get(`${prefix}empty`))).length).toBe(0);
    });

    it('overwrites an existing key', async () => {
      await storage.put(`${prefix}a`, Readable.from([Buffer.from('first version')]), { contentType: 'text/plain' });
      await storage.put(`${prefix}a`, Readable.from([Buffer.from('second')]));
      expect((await readAll(await storage.get(`${prefix}a`))).toString()).toBe('second');
      expect(await storage.stat(`${prefix}a`)).toEqual({ size: 6, contentType: 'application/octet-stream' });
    });

    it('aborts a body over maxBytes and leaves nothing behind', async () => {
      const key = `${prefix}too-big.bin`;
      const source = Readable.from(generate(3 * 1024 * 1024, 64 * 1024));

      await expect(storage.put(key, source, { maxBytes: 1024 * 1024 })).rejects.toBeInstanceOf(ObjectTooLargeError);

      expect(source.destroyed).toBe(true);
      expect(await storage.exists(key)).toBe(false);
      expect(await listAll(storage, prefix)).toEqual([]);
      expect(await harness.leftovers(prefix)).toEqual([]);
    });

    it('does not replace an existing object with an over-limit body', async () => {
      const key = `${prefix}kept.txt`;
      await storage.put(key, Readable.from([Buffer.from('original')]));
      await expect(storage.put(key, Readable.from(generate(2 * 1024 * 1024, 64 * 1024)), { maxBytes: 1000 })).rejects.toBeInstanceOf(ObjectTooLargeError);
      expect((await readAll(await storage.get(key))).toString()).toBe('original');
    });

    it('accepts a body of exactly maxBytes, and rejects an announced size over it before reading', async () => {
      await expect(storage.put(`${prefix}exact`, Readable.from([Buffer.alloc(1000, 1)]), { maxBytes: 1000 })).resolves.toMatchObject({ size: 1000 });
      const source = Readable.from([Buffer.alloc(10)]);
      await expect(storage.put(`${prefix}announced`, source, { size: 5000, maxBytes: 1000 })).rejects.toBeInstanceOf(ObjectTooLargeError);
      expect(await storage.exists(`${prefix}announced`)).toBe(false);
    });

    it('rejects a body shorter than its announced size and keeps nothing', async () => {
      await expect(storage.put(`${prefix}short`, Readable.from([Buffer.alloc(10)]), { size: 11 })).rejects.toThrow(/expected 11/);
      expect(await storage.exists(`${prefix}short`)).toBe(false);
      expect(await harness.leftovers(prefix)).toEqual([]);
    });

    it('keeps nothing when the source stream fails midway', async () => {
      async function* failing() {
        yield Buffer.alloc(100 * 1024, 1);
        throw new Error('client went away');
      }
      await expect(storage.put(`${prefix}broken`, Readable.from(failing()))).rejects.toThrow('client went away');
      expect(await storage.exists(`${prefix}broken`)).toBe(false);
      expect(await harness.leftovers(prefix)).toEqual([]);
    });

    it('passes its readiness check while the store is up, and leaves nothing behind', async () => {
      await storage.check();
      await storage.check();
      expect((await harness.leftovers('')).filter((key) => key.includes('probe'))).toEqual([]);
    });

    it('throws ObjectNotFoundError for a missing key, and stat answers null', async () => {
      await expect(storage.get(`${prefix}missing`)).rejects.toBeInstanceOf(ObjectNotFoundError);
      expect(await storage.stat(`${prefix}missing`)).toBeNull();
      expect(await storage.exists(`${prefix}missing`)).toBe(false);
    });

    it('deletes idempotently', async () => {
      const key = `${prefix}to-delete`;
      await storage.put(key, Readable.from([Buffer.from('x')]));
      await storage.delete(key);
      await storage.delete(key);
      await storage.delete(`${prefix}never-existed`);
      expect(await storage.exists(key)).toBe(false);
      await expect(storage.get(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
    });

    it('lists keys by plain string prefix', async () => {
      for (const key of ['a/1', 'a/2', 'a/b/3', 'ab', 'c']) await storage.put(`${prefix}${key}`, Readable.from([Buffer.from(key)]));
      expect((await listAll(storage, `${prefix}a`)).sort()).toEqual([`${prefix}a/1`, `${prefix}a/2`, `${prefix}a/b/3`, `${prefix}ab`]);
      expect((await listAll(storage, `${prefix}a/`)).sort()).toEqual([`${prefix}a/1`, `${prefix}a/2`, `${prefix}a/b/3`]);
      expect(await listAll(storage, `${prefix}zzz`)).toEqual([]);
    });

    it.each([
      ['../escape', 'a parent segment'],
      ['a/../../b', 'a nested parent segment'],
      ['/etc/passwd', 'an absolute path'],
      ['a\0b', 'a NUL byte'],
      ['', 'an empty key'],
      ['a//b', 'an empty segment'],
      ['./a', 'a dot segment'],
      ['a\\..\\b', 'backslashes'],
      ['C:/windows', 'a drive letter'],
      ['a/.~tmp-1', 'a reserved name'],
    ])('rejects the key %j (%s) in every operation', async (key) => {
      const source = Readable.from([Buffer.from('x')]);
      await expect(storage.put(key, source)).rejects.toBeInstanceOf(InvalidObjectKeyError);
      expect(source.destroyed).toBe(true);
      await expect(storage.get(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(storage.stat(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(storage.delete(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(storage.exists(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(storage.signedDownloadUrl(key, { expiresInSeconds: 60 })).rejects.toBeInstanceOf(InvalidObjectKeyError);
    });

    it('accepts keys with spaces, unicode and punctuation', async () => {
      const key = `${prefix}Ürün listesi (2024) & more+plus=1%.csv`;
      await storage.put(key, Readable.from([Buffer.from('ok')]));
      expect((await readAll(await storage.get(key))).toString()).toBe('ok');
      expect(await listAll(storage, prefix)).toEqual([key]);
    });

    it('signs a download URL that serves the bytes under the given file name', async () => {
      const key = `${prefix}files/report.csv`;
      const body = randomBytes(300 * 1024);
      await storage.put(key, Readable.from([body]), { contentType: 'text/csv' });

      const url = await storage.signedDownloadUrl(key, { expiresInSeconds: 300, fileName: 'Rapor – 2024.csv' });
      const downloaded = await harness.download(url);

      expect(sha256(downloaded.body)).toBe(sha256(body));
      expect(downloaded.contentDisposition).toContain('attachment');
      expect(downloaded.contentDisposition).toContain(`filename*=UTF-8''${encodeURIComponent('Rapor – 2024.csv')}`);
    });

    it('rejects an expired signed URL', async () => {
      const key = `${prefix}expired.txt`;
      await storage.put(key, Readable.from([Buffer.from('secret')]));
      clock.offsetMs = -60 * 60 * 1000; // signed an hour ago, valid for a minute
      const url = await storage.signedDownloadUrl(key, { expiresInSeconds: 60 });
      clock.offsetMs = 0;
      await expect(harness.download(url)).rejects.toThrow();
    });

    it('rejects a tampered signed URL', async () => {
      const key = `${prefix}tampered.txt`;
      await storage.put(key, Readable.from([Buffer.from('secret')]));
      const url = await storage.signedDownloadUrl(key, { expiresInSeconds: 300 });
      await expect(harness.download(url)).resolves.toMatchObject({ body: Buffer.from('secret') });

      for (const tampered of tamperings(url)) await expect(harness.download(tampered)).rejects.toThrow();
    });

    it('rejects a non-positive or over-long expiry', async () => {
      await expect(storage.signedDownloadUrl(`${prefix}x`, { expiresInSeconds: 0 })).rejects.toThrow(RangeError);
      await expect(storage.signedDownloadUrl(`${prefix}x`, { expiresInSeconds: 8 * 24 * 3600 })).rejects.toThrow(RangeError);
    });
  });
}

/** Variants of a signed URL that must all be refused: signature or token altered, or expiry stretched. */
function tamperings(url: string): string[] {
  const parsed = new URL(url);
  const variants: string[] = [];
  for (const [name, value] of parsed.searchParams) {
    if (!/signature|token|expires/i.test(name)) continue;
    const middle = Math.floor(value.length / 2);
    const altered = new URL(url);
    const replacement = /expires/i.test(name)
      ? String(Number(value) + 3600)
      : value.slice(0, middle) + (value[middle] === 'a' ? 'b' : 'a') + value.slice(middle + 1);
    altered.searchParams.set(name, replacement);
    variants.push(altered.toString());
  }
  if (variants.length === 0) throw new Error(`No signature in ${url}`);
  return variants;
}

export function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Generates `total` bytes in fresh chunks, so nothing is shared between them. */
export function* generate(total: number, chunkSize: number): Generator<Buffer> {
  for (let sent = 0; sent < total; sent += chunkSize) yield Buffer.alloc(Math.min(chunkSize, total - sent), sent % 251);
}
