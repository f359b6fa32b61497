import type { Readable } from 'node:stream';

/** A cloud account's credentials and where its store is ('' endpoint: AWS itself). */
export interface CloudCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  endpoint: string;
  region: string;
}

export interface CloudBucket {
  name: string;
  creation_date: string | null;
}

export interface CloudObject {
  name: string;
  size: number;
  last_modified: string | null;
}

export interface OpenedObject {
  stream: Readable;
  size: number;
  contentType: string | undefined;
}

/** The store refused or could not be reached; callers answer the spec's texts, never the cause. */
export class CloudStoreError extends Error {}

/** Port: S3 and S3-compatible stores (MinIO, Ceph, s3rver in tests). Throws CloudStoreError. */
export abstract class CloudObjectStores {
  abstract listBuckets(credentials: CloudCredentials): Promise<CloudBucket[]>;
  /** Up to `limit` objects of the bucket, in key order. */
  abstract listObjects(credentials: CloudCredentials, bucket: string, limit: number): Promise<CloudObject[]>;
  /** The object's bytes as a stream (read once, never buffered whole). */
  abstract getObject(credentials: CloudCredentials, bucket: string, key: string): Promise<OpenedObject>;
}
