import { type ResponseOf, typedApi } from '../api/typed';
import { withMeta } from '../records/records-api';

export type SqlType = 'mysql' | 'postgresql';

export interface ConnectionForm {
  sqltype: SqlType;
  host: string;
  name: string;
  username: string;
  password: string;
  port: string;
}

/** A saved connection, an SQL table and a table preview, typed from the OpenAPI document. */
export type Connection = ResponseOf<'/api/connections/create-connection', 'post'>;
export type SqlTable = ResponseOf<'/api/connections/{id}/list-objects', 'get'>['results'][number];
export type TablePreview = ResponseOf<'/api/connections/get-object', 'post'>;

/** The private-column fields every way of indexing takes (encryptList with the linkage key, formatList). */
export interface PrivateFields {
  encryptList?: string[];
  /** Of encryptList: columns hashed as CLKs (fuzzy linkage). */
  fuzzyList?: string[];
  formatList?: Array<{ column: string; format: 'exclude' | 'mask' }>;
  linkageKey?: string;
}

const body = (form: ConnectionForm) => ({ ...form, port: form.port.trim() === '' ? undefined : form.port });

/** Spec section 7 "Connections". */
export const connectionsApi = {
  list: (signal?: AbortSignal) => typedApi.get('/api/connections/list-connections', { signal }),
  test: (form: ConnectionForm) => typedApi.post('/api/connections/test-connection', body(form)),
  create: (form: ConnectionForm) => typedApi.post('/api/connections/create-connection', body(form)),
  remove: (id: string) => typedApi.post('/api/connections/{id}/delete-connection', undefined, { params: { id } }),
  tables: (id: string, signal?: AbortSignal) => typedApi.get('/api/connections/{id}/list-objects', { params: { id }, signal }),
  preview: (connectionId: string, objectName: string) => typedApi.post('/api/connections/get-object', { connectionId, objectName, rowsPerPage: 10 }),
  // The document gives a record's file META as a free-form object; the screens read it as CatalogueRecord.
  createMetadata: async (connectionId: string, objectName: string, fields: PrivateFields) =>
    withMeta(await typedApi.post('/api/connections/create-metadata', { connectionId, objectName, ...fields })),
};

export type CloudAccount = ResponseOf<'/api/connect-aws/get-accounts', 'get'>['results'][number];

/** A saved account, or credentials typed in. */
export type CloudCredentials = { accountId: string } | { AwsAccessKeyId: string; AwsSecretAccessKey: string; endpoint?: string; region?: string };

export type CloudIndexResult = ResponseOf<'/api/connect-aws/index-object', 'post'>['results'][number];

/** Spec section 7 "Cloud". POST with a JSON body, so that no secret is put in a URL. */
export const cloudApi = {
  accounts: (signal?: AbortSignal) => typedApi.get('/api/connect-aws/get-accounts', { signal }),
  removeAccount: (accountId: string) => typedApi.post('/api/connect-aws/delete-account', { accountId }),
  buckets: (credentials: CloudCredentials, saveAccount: boolean) => typedApi.post('/api/connect-aws/get-buckets', { ...credentials, saveAccount }),
  // bucket is documented as a list (the server also takes one name and reads it as a list of one).
  objects: (credentials: CloudCredentials, bucket: string) => typedApi.post('/api/connect-aws/get-bucket-objects', { ...credentials, bucket: [bucket] }),
  indexBuckets: (credentials: CloudCredentials, buckets: string[]) =>
    typedApi.post('/api/connect-aws/index-bucket', { ...credentials, buckets, sync: 'once' }, { timeoutMs: 180_000 }),
  indexObjects: (credentials: CloudCredentials, bucket: string, objects: string[]) =>
    typedApi.post('/api/connect-aws/index-object', { ...credentials, bucket: [bucket], objects, sync: 'once' }, { timeoutMs: 180_000 }),
};
