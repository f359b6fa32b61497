import { GetObjectCommand, ListBucketsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { Injectable } from '@nestjs/common';
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { EndpointGuard } from '../network/endpoint-guard';
import { type CloudBucket, type CloudCredentials, type CloudObject, CloudObjectStores, CloudStoreError, type OpenedObject } from './cloud-object-stores';

/**
 * @aws-sdk/client-s3 against AWS or any S3-compatible endpoint (path-style). Every connection goes
 * through the EndpointGuard's lookup, and an endpoint given as an IP address is checked before the
 * client is made (Node does not look IP addresses up), so a user's endpoint cannot point inside.
 */
@Injectable()
export class AwsCloudObjectStores extends CloudObjectStores {
  constructor(private readonly guard: EndpointGuard) {
    super();
  }

  private async client(credentials: CloudCredentials): Promise<S3Client> {
    if (credentials.endpoint) {
      try {
        await this.guard.resolve(new URL(credentials.endpoint).hostname);
      } catch {
        throw new CloudStoreError('endpoint refused');
      }
    }
    const lookup = this.guard.lookup();
    return new S3Client({
      region: credentials.region,
      ...(credentials.endpoint && { endpoint: credentials.endpoint, forcePathStyle: true }),
      credentials: { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey },
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 10_000, requestTimeout: 60_000, httpAgent: new http.Agent({ lookup }), httpsAgent: new https.Agent({ lookup }) },
    });
  }

  private async call<T>(credentials: CloudCredentials, work: (client: S3Client) => Promise<T>): Promise<T> {
    const client = await this.client(credentials);
    try {
      return await work(client);
    } catch {
      throw new CloudStoreError('request failed');
    } finally {
      client.destroy();
    }
  }

  listBuckets(credentials: CloudCredentials): Promise<CloudBucket[]> {
    return this.call(credentials, async (client) => {
      const answer = await client.send(new ListBucketsCommand({}));
      return (answer.Buckets ?? []).map((b) => ({ name: b.Name ?? '', creation_date: b.CreationDate?.toISOString() ?? null })).filter((b) => b.name);
    });
  }

  listObjects(credentials: CloudCredentials, bucket: string, limit: number): Promise<CloudObject[]> {
    return this.call(credentials, async (client) => {
      const objects: CloudObject[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token, MaxKeys: Math.min(1000, limit - objects.length) }));
        for (const item of page.Contents ?? [])
          if (item.Key) objects.push({ name: item.Key, size: item.Size ?? 0, last_modified: item.LastModified?.toISOString() ?? null });
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token && objects.length < limit);
      return objects;
    });
  }

  async getObject(credentials: CloudCredentials, bucket: string, key: string): Promise<OpenedObject> {
    const client = await this.client(credentials);
    try {
      const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      if (!(answer.Body instanceof Readable)) throw new Error('no body');
      const stream = answer.Body;
      stream.once('close', () => client.destroy());
      return { stream, size: answer.ContentLength ?? 0, contentType: answer.ContentType };
    } catch {
      client.destroy();
      throw new CloudStoreError('get failed');
    }
  }
}
