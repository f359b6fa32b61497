import { z } from 'zod';
import { SOURCE_TERMS } from '../record-access';
import { defineEvent } from './registry';

/**
 * The catalogue's events: records and their files. A record event carries everything the search
 * service needs for a card and its visibility, what requests keeps (owner, name, policy) and what
 * relations needs to find a record's files and headers.
 */
const id = z.string().min(1);
const timestamp = z.string().datetime({ offset: true });

export const RECORD_VISIBILITY_CODES = ['PR', 'EV', 'CU'] as const;
export const RECORD_ACCESS_CODES = ['RE', 'OP'] as const;
export const EXTRACT_OPTIONS = ['minimal', 'metadata', 'samples'] as const;
export const EXTRACTION_STATUSES = ['pending', 'running', 'done', 'failed', 'skipped'] as const;

const recordFile = z.object({
  fileId: id,
  name: z.string(),
  contentType: z.string(),
  size: z.number().int().nonnegative(),
  checksum: z.string().describe('sha256 of the content, lowercase hex.'),
  extractionStatus: z.enum(EXTRACTION_STATUSES),
});

/**
 * A source a derived record's data depends on (lineage): read by the record's owner under `open` or
 * `grant` terms, directly or through a derivative it was made from. The data may be read while every
 * link holds: not revoked by the source's owner, and the owner still may download the source.
 */
export const derivationLinkSchema = z.object({
  recordId: id.describe('The source record.'),
  terms: z.enum(SOURCE_TERMS),
  requestId: id.nullable().default(null).describe('grant only: the approved request the data was read under.'),
  revoked: z.boolean().default(false).describe("The source's owner revoked this derivative's use of their data."),
});
export type DerivationLink = z.output<typeof derivationLinkSchema>;

/** The state of a record after a change (record.created, record.updated). */
export const recordSnapshotSchema = z.object({
  recordId: id,
  name: z.string(),
  altName: z.string().default(''),
  description: z.string().default(''),
  provenance: z.string().default(''),
  source: z.string().default(''),
  ownerId: id,
  ownerUsername: z.string(),
  organisationId: id,
  organisationName: z.string().default('').describe('Empty when the catalogue has not yet heard of the organisation.'),
  visibility: z
    .enum(RECORD_VISIBILITY_CODES)
    .describe('PR: owner and their organisation; EV: everyone, anonymous included; CU: PR plus the listed users and organisations.'),
  sharedWithUserIds: z.array(id).default([]).describe('CU only: users who may see the record.'),
  sharedWithOrganisationIds: z.array(id).default([]).describe('CU only: organisations whose members may see the record.'),
  groupIds: z.array(id).default([]).describe('Projects (groups) the record belongs to.'),
  projects: z
    .array(z.object({ id, organisationId: id }))
    .default([])
    .describe(
      "The same projects with the organisation each belongs to (a member may file another organisation's visible record into their project): only that organisation may list a project.",
    ),
  access: z.enum(RECORD_ACCESS_CODES).describe('RE: data needs an approved request; OP: whoever may see it may download.'),
  derivedFrom: z
    .array(derivationLinkSchema)
    .default([])
    .describe("Lineage: the sources under someone else's terms this record's data depends on (empty for ordinary records)."),
  ownerOnly: z
    .boolean()
    .default(false)
    .describe('Seen and downloaded by its owner alone, whatever visibility says: a record derived from data shared with its maker only (lineage).'),
  accessFee: z.number().nonnegative().nullable().describe('A term shown to requestors; no payment is taken.'),
  currency: z.string(),
  policyId: id.nullable(),
  origin: z.string().describe('How the record was indexed: upload, url (fetched from its source URL), metadata.'),
  type: z.string(),
  size: z.number().int().nonnegative().describe('Bytes of all its files.'),
  version: z.number().int().positive(),
  createdAt: timestamp,
  changedAt: timestamp,
  headers: z.array(z.string()).default([]).describe('Column headers of its files, once extracted.'),
  words: z.array(z.string()).default([]).describe('Word set of its files, once extracted (capped).'),
  totalRows: z.number().int().nonnegative().nullable().default(null),
  encryptedHeaders: z.array(z.string()).default([]).describe('Headers of hashed private columns (linkable: equal values hash equally across records).'),
  files: z.array(recordFile).default([]),
});
export type RecordSnapshot = z.output<typeof recordSnapshotSchema>;

export const RecordCreated = defineEvent('record.created', 1, 'A record was indexed (uploaded files or metadata only)', recordSnapshotSchema);

export const RecordUpdated = defineEvent(
  'record.updated',
  1,
  'A record changed: metadata, access terms, visibility, files or extracted metadata',
  recordSnapshotSchema,
);

export const RecordDeleted = defineEvent(
  'record.deleted',
  1,
  'A record and its files were deleted',
  z.object({
    recordId: id,
    ownerId: id,
    organisationId: id,
  }),
);

export const FileMetadataExtracted = defineEvent(
  'file.metadata-extracted',
  1,
  'Metadata extraction of a file ended (done, failed or skipped)',
  z.object({
    recordId: id,
    fileId: id,
    fileName: z.string(),
    contentType: z.string(),
    status: z.enum(['done', 'failed', 'skipped']),
    extractOption: z.enum(EXTRACT_OPTIONS),
    headers: z.array(z.string()).default([]),
    totalRows: z.number().int().nonnegative().nullable().default(null),
    errors: z.array(z.string()).default([]),
    encryptedHeaders: z.array(z.string()).default([]).describe('Headers of hashed private columns.'),
  }),
);
