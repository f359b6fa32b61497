// The copy of an upload's bytes (statistics while uploading): it gets every byte the store gets, and
// it never holds an upload up for good: a copy that is closed, or that takes nothing for
// COPY_STALL_MS, is left behind while the file is stored whole. Real HTTP, real multipart, files on disk.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { FsObjectStorage, SignedLinkSigner } from '@dc/storage';
import { COPY_STALL_MS, type FilePartStart, receiveMultipart, type UploadCopies } from './busboy-multipart';

/** A copy that keeps what it is given, taking each chunk when `take` says so. */
class CopySink extends Writable {
  readonly chunks: Buffer[] = [];
  constructor(private readonly take: (done: () => void) => void) {
    super({ highWaterMark: 16 * 1024 });
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.chunks.push(Buffer.from(chunk));
    this.take(() => done());
  }
}

describe('receiveMultipart with a copy of each file', () => {
  const rootDir = mkdtempSync(path.join(tmpdir(), 'dc-multipart-copy-'));
  const storage = new FsObjectStorage({ rootDir, publicBaseUrl: 'http://localhost', signer: new SignedLinkSigner('multipart-copy-secret-0123456789') });
  const file = randomBytes(3 * 1024 * 1024);
  let copy: CopySink;
  let parts: FilePartStart[];
  let discarded: string[];
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    const copies: UploadCopies = {
      begin: (part) => {
        parts.push(part);
        return copy;
      },
      discard: (key) => discarded.push(key),
    };
    server = http.createServer((req, res) => {
      receiveMultipart(req, storage, { maxBytes: 1e9, keyFor: (id) => `copies/${id}`, copies }).then(
        (form) => res.end(JSON.stringify(form)),
        (error: Error) => res.writeHead(400).end(error.message),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  beforeEach(() => {
    parts = [];
    discarded = [];
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(rootDir, { recursive: true, force: true });
  });

  /** Uploads the file after a field, and answers what was stored and the stored bytes. */
  const upload = async () => {
    const form = new FormData();
    form.set('extractOption', 'samples');
    form.set('file', new Blob([file], { type: 'text/csv' }), 'data.csv');
    const response = await fetch(`${base}/`, { method: 'POST', body: form });
    expect(response.status).toBe(200);
    const { files } = (await response.json()) as { files: Array<{ key: string; size: number }> };
    const stored: Buffer[] = [];
    for await (const chunk of await storage.get(files[0].key)) stored.push(chunk as Buffer);
    return { key: files[0].key, size: files[0].size, stored: Buffer.concat(stored) };
  };

  it('gives the copy every byte the store gets, pacing the upload by it, with the fields sent before the file', async () => {
    copy = new CopySink((done) => setTimeout(done, 1));
    const { key, size, stored } = await upload();
    expect(size).toBe(file.length);
    expect(stored.equals(file)).toBe(true);
    expect(Buffer.concat(copy.chunks).equals(file)).toBe(true);
    expect(copy.writableFinished).toBe(true);
    expect(parts).toEqual([{ key, fileName: 'data.csv', contentType: 'text/csv', fields: { extractOption: 'samples' } }]);
    expect(discarded).toEqual([]);
  });

  it('stores the whole file when the copy is closed part way', async () => {
    copy = new CopySink((done) => {
      done();
      if (copy.chunks.length === 3) copy.destroy();
    });
    const { stored } = await upload();
    expect(stored.equals(file)).toBe(true);
    expect(copy.destroyed).toBe(true);
    expect(copy.chunks.length).toBeLessThan(10);
  });

  it('leaves behind a copy that takes nothing for a while, and stores the whole file', async () => {
    let failure: Error | undefined;
    copy = new CopySink(() => undefined);
    copy.on('error', (error) => (failure = error));
    const { stored } = await upload();
    expect(stored.equals(file)).toBe(true);
    expect(failure?.message).toBe(`the copy took nothing for ${COPY_STALL_MS} ms`);
  });
});
