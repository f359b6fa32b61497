import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { startS3rver, TestS3Server } from '@dc/testing';
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ObjectStorageError, ObjectTooLargeError } from './errors';
import { listAll } from './object-storage';
import { generate, objectStorageContract, readAll } from './object-storage.contract';
import { S3ObjectStorage, S3ObjectStorageOptions } from './s3-object-storage';

function options(server: TestS3Server, bucket: string): S3ObjectStorageOptions {
  return {
    endpoint: server.endpoint,
    region: 'us-east-1',
    accessKeyId: server.accessKeyId,
    secretAccessKey: server.secretAccessKey,
    bucket,
  };
}

function bucketName(): string {
  return `dc-test-${randomBytes(4).toString('hex')}`;
}

/** Multipart uploads s3rver still holds (it cannot abort them, MinIO and S3 can). */
async function pendingUploads(server: TestS3Server, bucket: string, prefix: string): Promise<string[]> {
  const dir = join(server.directory, bucket, '._S3rver_uploads');
  const ids = await readdir(dir).catch(() => [] as string[]);
  const keys = await Promise.all(ids.map((id) => readFile(join(dir, id, 'key'), 'utf8').catch(() => '')));
  return keys.filter((key) => key.startsWith(prefix)).map((key) => `pending upload: ${key}`);
}

objectStorageContract('s3 (s3rver)', async (clock) => {
  const server = await startS3rver();
  const bucket = bucketName();
  // Small parts, so the multi-megabyte round trip really goes through a multipart upload.
  const storage = new S3ObjectStorage({ ...options(server, bucket), partSizeBytes: 5 * 1024 * 1024, now: clock.now });
  const raw = new S3Client({
    endpoint: server.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
  });
  return {
    storage,
    async download(url) {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
      return { body: Buffer.from(await response.arrayBuffer()), contentDisposition: response.headers.get('content-disposition') ?? undefined };
    },
    async leftovers(prefix) {
      const page = await raw.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
      return [...(page.Contents ?? []).map((object) => object.Key ?? ''), ...(await pendingUploads(server, bucket, prefix))];
    },
    async close() {
      storage.close();
      raw.destroy();
      await server.stop();
    },
  };
});

describe('S3ObjectStorage specifics (s3rver)', () => {
  let server: TestS3Server;
  beforeAll(async () => {
    server = await startS3rver();
  });
  afterAll(() => server.stop());

  it('fails its readiness check once the store is gone', async () => {
    const doomed = await startS3rver();
    const storage = new S3ObjectStorage(options(doomed, bucketName()));
    await storage.check();
    await doomed.stop();
    await expect(storage.check()).rejects.toThrow(/ECONNREFUSED/);
    storage.close();
  });

  it('creates its bucket when missing, and reuses an existing one', async () => {
    const bucket = bucketName();
    const first = new S3ObjectStorage(options(server, bucket));
    await first.put('a', Readable.from([Buffer.from('1')]));
    first.close();
    const second = new S3ObjectStorage(options(server, bucket));
    await second.ensureBucket();
    expect((await readAll(await second.get('a'))).toString()).toBe('1');
    second.close();
  });

  it('rejects an unknown access key', async () => {
    const storage = new S3ObjectStorage({ ...options(server, bucketName()), accessKeyId: 'WRONG' });
    await expect(storage.put('a', Readable.from([Buffer.from('1')]))).rejects.toThrow(/denied \(HTTP 403\): check the S3 credentials/);
    await expect(storage.ensureBucket()).rejects.toBeInstanceOf(ObjectStorageError);
    storage.close();
  });

  it('rejects a wrong secret key', async () => {
    const bucket = bucketName();
    const good = new S3ObjectStorage(options(server, bucket));
    await good.put('a', Readable.from([Buffer.from('1')]));
    const bad = new S3ObjectStorage({ ...options(server, bucket), secretAccessKey: 'not-the-secret' });
    await expect(bad.get('a')).rejects.toThrow(/denied \(HTTP 403\)/);
    // The same client, once past the bucket check, gets S3's own error document.
    const raw = new S3Client({
      endpoint: server.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: server.accessKeyId, secretAccessKey: 'not-the-secret' },
    });
    await expect(raw.send(new GetObjectCommand({ Bucket: bucket, Key: 'a' }))).rejects.toMatchObject({ name: 'SignatureDoesNotMatch' });
    raw.destroy();
    good.close();
    bad.close();
  });

  it('rejects anonymous requests, as MinIO does for a private bucket', async () => {
    const bucket = bucketName();
    const storage = new S3ObjectStorage(options(server, bucket));
    await storage.put('private.txt', Readable.from([Buffer.from('1')]));
    const response = await fetch(`${server.endpoint}/${bucket}/private.txt`);
    expect(response.status).toBe(403);
    storage.close();
  });

  it('reports the size limit, not the abort, when the limit is hit after parts were uploaded', async () => {
    const storage = new S3ObjectStorage({ ...options(server, bucketName()), partSizeBytes: 5 * 1024 * 1024, queueSize: 1 });
    const source = Readable.from(generate(14 * 1024 * 1024, 256 * 1024));
    await expect(storage.put('multi/too-big', source, { maxBytes: 11 * 1024 * 1024 })).rejects.toBeInstanceOf(ObjectTooLargeError);
    expect(await storage.exists('multi/too-big')).toBe(false);
    expect(await listAll(storage, 'multi/')).toEqual([]);
    storage.close();
  });

  it('signs URLs for the public endpoint when one is configured', async () => {
    const storage = new S3ObjectStorage({ ...options(server, bucketName()), publicEndpoint: 'http://files.example.test:9000' });
    const url = new URL(await storage.signedDownloadUrl('a/b.txt', { expiresInSeconds: 60 }));
    expect(url.host).toBe('files.example.test:9000');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('60');
    storage.close();
  });
});
