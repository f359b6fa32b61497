import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startS3rver, TestS3Server } from '@dc/testing';
import { FsObjectStorage } from './fs-object-storage';
import { ObjectStorage } from './object-storage';
import { S3ObjectStorage } from './s3-object-storage';
import { SignedLinkSigner } from './signed-link-signer';

// V8 collects garbage buffers only after ~64 MB of them pile up; collecting regularly makes the
// samples show what put() retains rather than when the collector happened to run.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;

const OBJECT_BYTES = 200 * 1024 * 1024;
const CHUNK_BYTES = 1024 * 1024;
const MAX_GROWTH_BYTES = 100 * 1024 * 1024;

/**
 * Streams ~200 MB of freshly allocated chunks through put() and samples the resident set size at
 * every chunk: if put() buffered the body, RSS would grow by about the object size (200 MB).
 */
async function peakRssGrowth(storage: ObjectStorage, key: string): Promise<{ growth: number; size: number }> {
  collectGarbage();
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  function* body() {
    for (let sent = 0; sent < OBJECT_BYTES; sent += CHUNK_BYTES) {
      // A young-generation collection is enough to free the chunks already written, and it is quick.
      // Parts held while in flight survive into the old generation, hence the occasional full one.
      if (sent % (64 * CHUNK_BYTES) === 0) collectGarbage();
      else if (sent % (8 * CHUNK_BYTES) === 0) collectGarbage({ type: 'minor' });
      peak = Math.max(peak, process.memoryUsage.rss());
      yield Buffer.alloc(CHUNK_BYTES, sent % 251);
    }
  }
  // Sampled while the body flows: a put() that held on to the body would be ~200 MB up by the last
  // chunk. (Not after put() returns: s3rver, in this process, then assembles the parts itself.)
  const result = await storage.put(key, Readable.from(body()), { maxBytes: OBJECT_BYTES });
  return { growth: peak - baseline, size: result.size };
}

/** Reads the object back through get() the same way: a get() that buffered it would be ~200 MB up. */
async function peakRssGrowthReading(storage: ObjectStorage, key: string): Promise<{ growth: number; size: number }> {
  collectGarbage();
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  let size = 0;
  let sinceMinor = 0;
  let sinceMajor = 0;
  for await (const chunk of await storage.get(key)) {
    size += (chunk as Buffer).length;
    sinceMinor += (chunk as Buffer).length;
    sinceMajor += (chunk as Buffer).length;
    if (sinceMajor >= 64 * CHUNK_BYTES) {
      collectGarbage();
      sinceMajor = sinceMinor = 0;
    } else if (sinceMinor >= 8 * CHUNK_BYTES) {
      collectGarbage({ type: 'minor' });
      sinceMinor = 0;
    }
    peak = Math.max(peak, process.memoryUsage.rss());
  }
  return { growth: peak - baseline, size };
}

describe('ObjectStorage memory: a 200 MB object streams in and out', () => {
  it('fs: RSS grows far less than the object size, writing and reading', async () => {
    const rootDir = await mkdtemp(join(tmpdir(), 'dc-fs-memory-'));
    try {
      const storage = new FsObjectStorage({ rootDir, publicBaseUrl: 'http://localhost', signer: new SignedLinkSigner('memory-test-secret-0123456789') });
      const { growth, size } = await peakRssGrowth(storage, 'big/object.bin');
      expect(size).toBe(OBJECT_BYTES);
      expect(growth).toBeLessThan(MAX_GROWTH_BYTES);
      const read = await peakRssGrowthReading(storage, 'big/object.bin');
      expect(read.size).toBe(OBJECT_BYTES);
      expect(read.growth).toBeLessThan(MAX_GROWTH_BYTES);
    } finally {
      await rm(rootDir, { recursive: true, force: true });
    }
  }, 180_000);

  describe('s3', () => {
    let server: TestS3Server;
    beforeAll(async () => {
      server = await startS3rver();
    });
    afterAll(() => server?.stop());

    it('s3 (s3rver, multipart): RSS grows far less than the object size, writing and reading', async () => {
      const storage = new S3ObjectStorage({
        endpoint: server.endpoint,
        region: 'us-east-1',
        accessKeyId: server.accessKeyId,
        secretAccessKey: server.secretAccessKey,
        bucket: 'memory-test',
        // Memory in flight is bounded by part size x queue size (each part is buffered, then sent).
        partSizeBytes: 5 * 1024 * 1024,
        queueSize: 2,
      });
      try {
        const { growth, size } = await peakRssGrowth(storage, 'big/object.bin');
        expect(size).toBe(OBJECT_BYTES);
        expect(growth).toBeLessThan(MAX_GROWTH_BYTES);
        expect(await storage.stat('big/object.bin')).toMatchObject({ size: OBJECT_BYTES });
        const read = await peakRssGrowthReading(storage, 'big/object.bin');
        expect(read.size).toBe(OBJECT_BYTES);
        expect(read.growth).toBeLessThan(MAX_GROWTH_BYTES);
      } finally {
        storage.close();
      }
    }, 180_000);
  });
});
