import { grantIsActive, type HarvestOutcome, type linkMatchSchema, type SourceTerms } from '@dc/contracts';
import type { z } from 'zod';
import type { jobViewSchema } from './dto';

/** One record of a job, with the terms its owner read it under. */
export interface JobSide {
  id: string;
  name: string;
  removed: boolean;
  /** From job.requested; null for jobs asked for before lineage (no restriction known). */
  terms: SourceTerms | null;
  /** 'grant' only: the approved request the owner read the record under. */
  requestId: string | null;
  /** That request as the jobs service last heard of it; null when it never heard of it. */
  grant: { status: string; expiresAt: Date | null } | null;
}

/** A job as the registry keeps it (spec: Job). */
export interface Job {
  jobId: string;
  type: 'MERGE' | 'LINK' | 'HARVEST';
  ownerId: string;
  info: string;
  left: JobSide;
  right: JobSide;
  progress: { current: number; total: number };
  status: 'active' | 'done' | 'failed';
  resultRecordId: string | null;
  matches: Array<z.output<typeof linkMatchSchema>>;
  totRows: { left: number; right: number } | null;
  /** HARVEST: what the import made of the datasets (from job.completed). */
  harvest: HarvestOutcome | null;
  createdAt: Date;
  completedAt: Date | null;
}

/**
 * Why a LINK job's row pairs are no longer shown (lineage: they were made from its sides' rows), or
 * null. Only sides read under a grant are followed: that very request must still grant (a new
 * approval is a new request and brings nothing back; one never heard of counts as ended). MERGE
 * jobs hold only their result record's id, whose download the catalogue already follows.
 */
export function withheldReason(job: Job, now: Date): string | null {
  if (job.type !== 'LINK') return null;
  const ended = [job.left, job.right].filter((side) => side.terms === 'grant' && !(side.grant && grantIsActive(side.grant, now)));
  if (ended.length === 0) return null;
  if (ended.length === 1) return `The access grant on "${ended[0].name}" has ended: the links made under it are no longer shown.`;
  return `The access grants on "${ended[0].name}" and "${ended[1].name}" have ended: the links made under them are no longer shown.`;
}

/** The spec's job fields; `withMatches` false leaves a LINK job's row pairs out (the list shows their count). */
export function jobView(job: Job, withMatches: boolean, now: Date = new Date()): z.output<typeof jobViewSchema> {
  const withheld = withheldReason(job, now);
  // Withheld pairs stay stored: the view alone leaves them out.
  const matches = withheld ? [] : job.matches;
  return {
    job_id: job.jobId,
    type: job.type,
    progress: job.progress,
    info: job.info,
    is_active: job.status === 'active',
    status: job.status === 'active' ? 'active' : 'complete',
    failed: job.status === 'failed',
    created: job.createdAt.toISOString(),
    completed: job.completedAt?.toISOString() ?? null,
    content: {
      record_left_name: job.left.name,
      record_left_id: job.left.id,
      record_left_removed: job.left.removed,
      record_right_name: job.right.name,
      record_right_id: job.right.id,
      record_right_removed: job.right.removed,
      result_record_id: job.resultRecordId,
      total_matches: matches.length,
      ...(withMatches ? { matches } : {}),
      withheld,
      tot_rows: job.totRows,
      ...(job.type === 'HARVEST' ? { source: job.left.name, harvest: job.harvest } : {}),
    },
  };
}
