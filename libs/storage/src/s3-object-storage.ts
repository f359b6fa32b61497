import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { ObjectNotFoundError, ObjectStorageError } from './errors';
import { checkAnnouncedSize, MeteringStream } from './metering-stream';
import { assertValidObjectKey, assertValidPrefix } from './object-key';
import {
  assertValidExpiry,
  DEFAULT_CONTENT_TYPE,
  ObjectStat,
  ObjectStorage,
  PutObjectOptions,
  PutObjectResult,
  SignedDownloadUrlOptions,
} from './object-storage';
import { attachmentContentDisposition } from './signed-link-signer';

export interface S3ObjectStorageOptions {
  /** e.g. http://minio:9000 */
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  bucket: string;
  /** Path-style URLs (http://host/bucket/key), which MinIO and s3rver need. Default true. */
  forcePathStyle?: boolean;
  /**
   * Endpoint browsers reach the store at, when it differs from the internal one (for example
   * http://localhost:9000 outside docker). Presigned URLs are signed for this host.
   */
  publicEndpoint?: string;
  /** Multipart part size; also the most a single put() buffers per concurrent part. Default 8 MiB. */
  partSizeBytes?: number;
  /** Parts uploaded in parallel. Default 4. */
  queueSize?: number;
  /** Clock used to sign URLs, in epoch milliseconds; tests move it. */
  now?: () => number;
}

/**
 * Objects in an S3 bucket (distributed mode: MinIO, or any S3 endpoint), through @aws-sdk/client-s3.
 * Bodies are streamed with lib-storage's multipart Upload, so memory stays at about
 * partSizeBytes * queueSize whatever the object size. The bucket is created on first use.
 */
export class S3ObjectStorage extends ObjectStorage {
  private readonly client: S3Client;
  private readonly presignClient: S3Client;
  private readonly bucket: string;
  private readonly partSize: number;
  private readonly queueSize: number;
  private readonly now: () => number;
  private bucketReady?: Promise<void>;

  constructor(options: S3ObjectStorageOptions) {
    super();
    this.bucket = options.bucket;
    this.partSize = options.partSizeBytes ?? 8 * 1024 * 1024;
    this.queueSize = options.queueSize ?? 4;
    this.now = options.now ?? Date.now;
    this.client = createClient(options, options.endpoint);
    this.presignClient = options.publicEndpoint ? createClient(options, options.publicEndpoint) : this.client;
  }

  /** Creates the bucket unless it exists. Called by every operation; call it at start-up to fail early. */
  ensureBucket(): Promise<void> {
    this.bucketReady ??= this.createBucketIfMissing().catch((error: unknown) => {
      this.bucketReady = undefined; // let a later call retry, e.g. once the store is up
      throw error;
    });
    return this.bucketReady;
  }

  async put(key: string, body: Readable, options: PutObjectOptions = {}): Promise<PutObjectResult> {
    try {
      assertValidObjectKey(key);
      checkAnnouncedSize(key, options);
      await this.ensureBucket();
    } catch (error) {
      body.destroy();
      throw error;
    }
    const meter = new MeteringStream(key, options);
    // The meter's error ends the upload; pipeline destroys the source with it.
    pipeline(body, meter, () => undefined);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: meter, ContentType: options.contentType ?? DEFAULT_CONTENT_TYPE },
      partSize: this.partSize,
      queueSize: this.queueSize,
      // Failed multipart uploads are aborted, so their parts never become an object.
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      meter.destroy();
      // Report the size limit rather than whatever the aborted upload reported.
      throw meter.limitError ?? error;
    }
    return { key, size: meter.byteCount, checksum: meter.checksum };
  }

  async get(key: string): Promise<Readable> {
    assertValidObjectKey(key);
    await this.ensureBucket();
    try {
      const response = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return response.Body as Readable;
    } catch (error) {
      throw notFoundOr(key, error);
    }
  }

  async stat(key: string): Promise<ObjectStat | null> {
    assertValidObjectKey(key);
    await this.ensureBucket();
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return head.ContentType ? { size: head.ContentLength ?? 0, contentType: head.ContentType } : { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (notFoundOr(key, error) instanceof ObjectNotFoundError) return null;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    assertValidObjectKey(key);
    await this.ensureBucket();
    // S3's DeleteObject already succeeds for missing keys.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /** Asks for the bucket every time (ensureBucket remembers its success; the store may have gone since). */
  async check(): Promise<void> {
    await this.ensureBucket();
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  async *list(prefix: string): AsyncIterable<string> {
    assertValidPrefix(prefix);
    await this.ensureBucket();
    let continuationToken: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix || undefined, ContinuationToken: continuationToken }));
      for (const object of page.Contents ?? []) if (object.Key !== undefined) yield object.Key;
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken);
  }

  async signedDownloadUrl(key: string, options: SignedDownloadUrlOptions): Promise<string> {
    assertValidObjectKey(key);
    assertValidExpiry(options.expiresInSeconds);
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ResponseContentDisposition: options.fileName !== undefined ? attachmentContentDisposition(options.fileName) : undefined,
    });
    return getSignedUrl(this.presignClient, command, { expiresIn: options.expiresInSeconds, signingDate: new Date(this.now()) });
  }

  /** Closes the HTTP connections. */
  close(): void {
    this.client.destroy();
    if (this.presignClient !== this.client) this.presignClient.destroy();
  }

  private async createBucketIfMissing(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
      return;
    } catch (error) {
      const status = statusOf(error);
      // HEAD answers carry no error document, so name the likely cause here.
      if (status === 401 || status === 403) {
        throw new ObjectStorageError(`Access to bucket ${this.bucket} denied (HTTP ${status}): check the S3 credentials`, { cause: error });
      }
      if (status !== 404) throw error;
    }
    try {
      await this.client.send(new CreateBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      // Another process created it in between.
      const name = (error as Error).name;
      if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw error;
    }
  }
}

function createClient(options: S3ObjectStorageOptions, endpoint: string): S3Client {
  return new S3Client({
    endpoint,
    region: options.region,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    forcePathStyle: options.forcePathStyle ?? true,
    // Newer SDKs add CRC checksums (aws-chunked trailers) that MinIO versions and s3rver do not all
    // understand; we compute our own sha256 anyway.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

function statusOf(error: unknown): number | undefined {
  return (error as S3ServiceException | undefined)?.$metadata?.httpStatusCode;
}

function notFoundOr(key: string, error: unknown): unknown {
  const name = (error as Error | undefined)?.name;
  return name === 'NoSuchKey' || name === 'NotFound' || statusOf(error) === 404 ? new ObjectNotFoundError(key, { cause: error }) : error;
}
