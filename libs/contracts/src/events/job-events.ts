import { z } from 'zod';
import { SOURCE_TERMS } from '../record-access';
import { defineEvent } from './registry';

/**
 * Background jobs (spec: Job). relations checks who asks and what they may read, then hands the
 * job over as job.requested; job workers (one consumer group per job kind) run it and report
 * job.progressed and job.completed; the jobs service keeps the registry the Jobs page reads. A
 * finished merge also publishes merge.completed, from which the catalogue makes the result record.
 * Every job event is keyed by its job id, so one job's events stay in order.
 */
const id = z.string().min(1);

export const JOB_TYPES = ['MERGE', 'LINK'] as const;
export type JobType = (typeof JOB_TYPES)[number];
export const MERGE_TYPES = ['horizontal', 'vertical'] as const;
export type MergeType = (typeof MERGE_TYPES)[number];

/** Who asked: the job's owner, and what the catalogue needs to give them the result record. */
const jobOwnerSchema = z.object({
  userId: id,
  username: z.string(),
  organisationId: id,
  clientType: z.enum(['STANDARD', 'BASIC']),
  groups: z.array(z.number().int()).default([]),
});
export type JobOwner = z.output<typeof jobOwnerSchema>;

/**
 * The terms the job's owner reads a source under, decided when the job was asked for (lineage:
 * what is made from it keeps them). Null in events written before lineage: the catalogue then
 * decides them itself when it makes the result record.
 */
function sourceTermsShape() {
  return {
    terms: z
      .enum(SOURCE_TERMS)
      .nullable()
      .default(null)
      .describe(
        "own: the owner's or their organisation's (as Data Admin); public: Everyone and Open; open: Open but not to everyone; grant: only through the approved request requestId.",
      ),
    requestId: id.nullable().default(null).describe('grant only: the approved request the owner reads the source under.'),
    grantExpiresAt: z
      .string()
      .datetime({ offset: true })
      .nullable()
      .default(null)
      .describe('grant only: when that approval ends (null: until revoked or closed), as it stood when the job was asked for.'),
  };
}

/** One side of a job: a record and the stored file its rows are read from. */
const jobSourceSchema = z.object({
  recordId: id,
  name: z.string(),
  fileId: id,
  fileName: z.string(),
  storageKey: z.string().min(1).describe('Object storage key of the file, checked readable by the owner when the job was requested.'),
  ...sourceTermsShape(),
});
export type JobSource = z.output<typeof jobSourceSchema>;

const fieldPairSchema = z.object({ left: z.string(), right: z.string() });

export const JobRequested = defineEvent(
  'job.requested',
  1,
  'A user started a background job (MERGE or LINK); job workers take it, the jobs service registers it',
  z.object({
    jobId: id,
    type: z.enum(JOB_TYPES),
    owner: jobOwnerSchema,
    info: z.string().describe('What the Jobs page shows about the job.'),
    left: jobSourceSchema,
    right: jobSourceSchema,
    merge: z
      .object({
        mergeType: z
          .enum(MERGE_TYPES)
          .describe('horizontal: inner join on the pairs, keeping every other column; vertical: the paired columns stacked, only those.'),
        pairs: z.array(fieldPairSchema).min(1).describe('Headers paired across the two sides (left header, right header).'),
      })
      .optional()
      .describe('MERGE jobs only.'),
    link: z
      .object({ pairs: z.array(fieldPairSchema).min(1).describe('Columns the user paired across the two sides (left header, right header).') })
      .optional()
      .describe('LINK jobs only, when the user chose the columns: rows are linked on these pairs. Absent: on the columns the linkage finds alike.'),
  }),
);

/** How a merge's pairs read: "Country Code, Year", or "country_code = Country Code" where the headers differ. */
export const mergePairsText = (pairs: ReadonlyArray<{ left: string; right: string }>) =>
  pairs.map((p) => (p.left === p.right ? p.left : `${p.left} = ${p.right}`)).join(', ');

/**
 * The name of a merge's result record: what was merged and how (names are at most 255 characters).
 * Horizontal: "gdp.csv joined with population.csv on Country Code, Year"; vertical: "gdp.csv stacked
 * with population.csv (Year)". relations shows it before the merge starts, the merge worker gives it.
 */
export function mergeResultName(left: string, right: string, mergeType: MergeType, pairs: ReadonlyArray<{ left: string; right: string }>): string {
  const how = mergePairsText(pairs);
  const name = mergeType === 'horizontal' ? `${left} joined with ${right} on ${how}` : `${left} stacked with ${right} (${how})`;
  return name.length > 255 ? `${name.slice(0, 254)}…` : name;
}
export type JobRequestedPayload = z.output<typeof JobRequested.payload>;

export const JobProgressed = defineEvent(
  'job.progressed',
  1,
  'A job worker moved a job on (progress current of total steps)',
  z.object({
    jobId: id,
    current: z.number().int().nonnegative(),
    total: z.number().int().positive(),
  }),
);

/** A LINK job's result (spec: Link match), bounded: the best pairs first. */
export const linkMatchSchema = z.object({
  fieldsA: z.array(z.string()),
  fieldsB: z.array(z.string()),
  rowA: z.number().int().nonnegative(),
  rowB: z.number().int().nonnegative(),
  rows_match_prob: z.number().min(0).max(1),
});

/** A DCAT import's counts, with why each failed dataset failed (bounded). */
export const harvestOutcomeSchema = z.object({
  total: z.number().int().nonnegative(),
  created: z.number().int().nonnegative(),
  updated: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  failures: z
    .array(z.object({ dataset: z.string(), reason: z.string() }))
    .max(100)
    .describe('The first 100 failed datasets (their IRI or title) and why.'),
});
export type HarvestOutcome = z.output<typeof harvestOutcomeSchema>;

/**
 * Jobs a service runs itself, with no job worker to hand them to (today: HARVEST, the import of a
 * DCAT catalogue, run by the catalogue). The jobs service registers them as it does job.requested;
 * their progress and end come as job.progressed and job.completed.
 */
export const JobStarted = defineEvent(
  'job.started',
  1,
  'A service started a background job it runs itself (HARVEST: a DCAT catalogue import); the jobs service registers it',
  z.object({
    jobId: id,
    type: z.enum(['HARVEST']),
    owner: jobOwnerSchema,
    info: z.string().describe('What the Jobs page shows about the job.'),
    source: z.string().describe('HARVEST: the URL or uploaded file name of the catalogue imported.'),
    total: z.number().int().positive().describe('Steps of the job (HARVEST: datasets to import).'),
  }),
);
export type JobStartedPayload = z.output<typeof JobStarted.payload>;

export const JobCompleted = defineEvent(
  'job.completed',
  1,
  "A job ended: done (with its result) or failed (info says why, in the spec's words)",
  z.object({
    jobId: id,
    status: z.enum(['done', 'failed']),
    info: z.string(),
    resultRecordId: id.nullable().default(null).describe('MERGE: the new record holding the merged file.'),
    matches: z.array(linkMatchSchema).max(10_000).default([]).describe('LINK: matched row pairs, best first.'),
    totRows: z.object({ left: z.number().int().nonnegative(), right: z.number().int().nonnegative() }).nullable().default(null),
    harvest: harvestOutcomeSchema.nullable().default(null).describe('HARVEST: what the import made of the datasets.'),
  }),
);

export const MergeCompleted = defineEvent(
  'merge.completed',
  1,
  "A merge job stored its merged CSV: the catalogue indexes it as a new private record of the job's owner",
  z.object({
    jobId: id,
    recordId: id.describe('Derived from the job id: a job re-run after a crash names the same record.'),
    owner: jobOwnerSchema,
    name: z.string().min(1),
    description: z.string(),
    provenance: z.string(),
    fileName: z.string().min(1),
    storageKey: z.string().min(1),
    size: z.number().int().nonnegative(),
    checksum: z.string(),
    rows: z.number().int().nonnegative(),
    sources: z
      .array(z.object({ recordId: id, name: z.string(), ...sourceTermsShape() }))
      .min(1)
      .describe('The records merged, with the terms the owner read each under: the result keeps them (lineage).'),
  }),
);
