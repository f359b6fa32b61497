import { Inject, Injectable } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import { pipeline, Transform } from 'node:stream';
import type { Logger } from 'pino';
import { linkageKeyId, SketchCollector } from '@dc/extraction';
import { APP_CONFIG, AppConfig, AuthUser, DetailError, FieldValidationError, LOGGER, notFound, SecretCipher } from '@dc/platform';
import { isUuid } from '@dc/contracts';
import { MetadataExtractor } from '../extraction/metadata-extractor';
import { contentTypeOf, extensionOf } from '../uploads/busboy-multipart';
import { privateColumnsOf } from '../record-model/private-columns';
import { IndexedRecords } from '../record-creation/indexed-records';
import { type CloudAccount, cloudAccountView } from './cloud-account';
import { CloudAccountsRepository } from './cloud-accounts.repository';
import { type CloudCredentials, CloudObjectStores, CloudStoreError } from './cloud-object-stores';
import type { CloudDto } from './dto/cloud.dto';

/** Spec section 8 (Cloud). */
export const BUCKETS_FAILED = 'Loading buckets for this account failed. Please try again.';
export const OBJECTS_FAILED = 'Loading bucket objects failed. Please try again.';
export const OBJECT_FAILED = 'Indexing this object failed: it could not be read.';
/** Objects listed and indexed per call. */
export const MAX_LISTED_OBJECTS = 1000;
export const MAX_INDEXED_OBJECTS = 100;
/** One object's extraction may take this long. */
export const OBJECT_TIMEOUT_MS = 5 * 60_000;

const secretContext = (id: string) => `cloud-account:${id}`;

export interface IndexedObject {
  id: string | null;
  name: string;
  bucket: string;
  size: number;
  type: string;
  /** Replaces the link when the object could not be indexed. */
  error: string | null;
}

/**
 * S3 buckets and objects (spec sections 2, 7 "Cloud"): accounts belong to their owner and nobody
 * else lists, reads, uses or deletes them (404). An object is streamed from the store straight
 * into extraction (never held whole, never stored here) and becomes a record with META.
 */
@Injectable()
export class CloudService {
  private readonly logger: Logger;

  constructor(
    private readonly accounts: CloudAccountsRepository,
    private readonly stores: CloudObjectStores,
    private readonly cipher: SecretCipher,
    private readonly extractor: MetadataExtractor,
    private readonly indexed: IndexedRecords,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'cloud' });
  }

  async list(user: AuthUser) {
    const accounts = await this.accounts.listOwned(user.id);
    return { count: accounts.length, next: null, previous: null, results: accounts.map(cloudAccountView) };
  }

  async remove(user: AuthUser, dto: { accountId?: string }): Promise<void> {
    if (!dto.accountId || !isUuid(dto.accountId) || !(await this.accounts.deleteOwned(dto.accountId, user.id))) throw notFound();
  }

  /** get-buckets: the account's buckets; saveAccount keeps the account once its credentials worked. */
  async buckets(user: AuthUser, dto: CloudDto) {
    const credentials = await this.credentials(user, dto);
    let buckets;
    try {
      buckets = await this.stores.listBuckets(credentials);
    } catch (error) {
      if (error instanceof CloudStoreError) throw new DetailError(BUCKETS_FAILED, 400);
      throw error;
    }
    const account = dto.saveAccount && !dto.accountId ? cloudAccountView(await this.save(user, credentials)) : null;
    return { buckets, account };
  }

  /** get-bucket-objects: the objects of exactly one bucket (spec section 5). */
  async objects(user: AuthUser, dto: CloudDto) {
    if (dto.buckets.length !== 1) throw new FieldValidationError({ bucket: ['Choose exactly one bucket.'] });
    const credentials = await this.credentials(user, dto);
    try {
      return { bucket: dto.buckets[0], objects: await this.stores.listObjects(credentials, dto.buckets[0], MAX_LISTED_OBJECTS) };
    } catch (error) {
      if (error instanceof CloudStoreError) throw new DetailError(OBJECTS_FAILED, 400);
      throw error;
    }
  }

  /** index-bucket: every object of the chosen buckets (at least one), up to MAX_INDEXED_OBJECTS. */
  async indexBuckets(user: AuthUser, dto: CloudDto) {
    if (dto.buckets.length === 0) throw new FieldValidationError({ bucket: ['Choose at least one bucket.'] });
    const credentials = await this.credentials(user, dto);
    const targets: Array<{ bucket: string; key: string }> = [];
    for (const bucket of dto.buckets) {
      try {
        for (const object of await this.stores.listObjects(credentials, bucket, MAX_INDEXED_OBJECTS - targets.length))
          targets.push({ bucket, key: object.name });
      } catch (error) {
        if (error instanceof CloudStoreError) throw new DetailError(OBJECTS_FAILED, 400);
        throw error;
      }
      if (targets.length >= MAX_INDEXED_OBJECTS) break;
    }
    return { results: await this.indexAll(user, credentials, dto, targets) };
  }

  /** index-object: the chosen objects of one bucket. */
  async indexObjects(user: AuthUser, dto: CloudDto) {
    if (dto.buckets.length !== 1) throw new FieldValidationError({ bucket: ['Choose exactly one bucket.'] });
    if (dto.objects.length === 0) throw new FieldValidationError({ object: ['Choose at least one object.'] });
    const credentials = await this.credentials(user, dto);
    return {
      results: await this.indexAll(
        user,
        credentials,
        dto,
        dto.objects.map((key) => ({ bucket: dto.buckets[0], key })),
      ),
    };
  }

  /** One object after the other: one connection to the store at a time. */
  private async indexAll(
    user: AuthUser,
    credentials: CloudCredentials,
    dto: CloudDto,
    targets: Array<{ bucket: string; key: string }>,
  ): Promise<IndexedObject[]> {
    const results: IndexedObject[] = [];
    for (const target of targets) results.push(await this.indexOne(user, credentials, dto, target.bucket, target.key));
    return results;
  }

  private async indexOne(user: AuthUser, credentials: CloudCredentials, dto: CloudDto, bucket: string, key: string): Promise<IndexedObject> {
    const fileName = path.posix.basename(key) || key;
    const type = extensionOf(fileName) || 'object';
    let size = 0;
    try {
      const opened = await this.stores.getObject(credentials, bucket, key);
      size = opened.size;
      if (size > this.config.MAX_UPLOAD_BYTES) {
        opened.stream.destroy();
        return { id: null, name: key, bucket, size, type, error: `Indexing this object failed: it is larger than ${this.config.MAX_UPLOAD_BYTES} bytes.` };
      }
      // The bytes are hashed on their way into extraction: the checksum costs no second read.
      const digest = createHash('sha256');
      let bytes = 0;
      const tap = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          digest.update(chunk);
          bytes += chunk.length;
          done(null, chunk);
        },
      });
      pipeline(opened.stream, tap, () => undefined);
      const contentType = contentTypeOf(fileName, opened.contentType);
      const choices = privateColumnsOf(dto, linkageKeyId);
      const privateColumns = choices
        ? { hash: choices.hash, fuzzy: choices.fuzzy, formats: choices.formats, summary: choices.summary, linkageKey: dto.linkageKey ?? undefined }
        : undefined;
      const sketches = new SketchCollector();
      const meta = await this.extractor.extract(
        { stream: tap, fileName, contentType, size },
        { extractOption: dto.extractOption, privateColumns, signal: AbortSignal.timeout(OBJECT_TIMEOUT_MS), sketches },
      );
      const checksum = bytes === size ? digest.digest('hex') : createHash('sha256').update(`s3:${credentials.endpoint}/${bucket}/${key}:${size}`).digest('hex');
      const id = await this.indexed.create(user, {
        name: fileName,
        source: `s3://${bucket}/${key}`,
        origin: 'cloud',
        type,
        extractOption: dto.extractOption,
        privateColumns: choices,
        file: { name: fileName, contentType, size, checksum, meta, sketches: sketches.tables },
      });
      return { id, name: key, bucket, size, type, error: null };
    } catch (error) {
      this.logger.warn({ err: error instanceof CloudStoreError ? error.message : error, bucket, key }, 'indexing an object failed');
      return { id: null, name: key, bucket, size, type, error: OBJECT_FAILED };
    }
  }

  /** The saved account's credentials (the caller's only, else 404), or those given. */
  private async credentials(user: AuthUser, dto: CloudDto): Promise<CloudCredentials> {
    if (dto.accountId) {
      const account = await this.accounts.findOwned(dto.accountId, user.id);
      if (!account) throw notFound();
      return {
        accessKeyId: account.accessKeyId,
        secretAccessKey: this.cipher.decrypt(account.sealedSecret, secretContext(account.id)),
        endpoint: account.endpoint,
        region: account.region,
      };
    }
    return { accessKeyId: dto.AwsAccessKeyId!, secretAccessKey: dto.AwsSecretAccessKey!, endpoint: dto.endpoint, region: dto.region };
  }

  private save(user: AuthUser, credentials: CloudCredentials): Promise<CloudAccount> {
    const account: CloudAccount = {
      id: randomUUID(),
      ownerId: user.id,
      organisationId: user.organisationId,
      accessKeyId: credentials.accessKeyId,
      sealedSecret: '',
      endpoint: credentials.endpoint,
      region: credentials.region,
      createdAt: new Date(),
    };
    return this.accounts.save(account, (id) => this.cipher.encrypt(credentials.secretAccessKey, secretContext(id)));
  }
}
