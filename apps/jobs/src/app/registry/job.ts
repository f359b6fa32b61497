import type { linkMatchSchema } from '@dc/contracts';
import type { z } from 'zod';
import type { jobViewSchema } from './dto';

/** A job as the registry keeps it (spec: Job). */
export interface Job {
  jobId: string;
  type: 'MERGE' | 'LINK';
  ownerId: string;
  info: string;
  left: { id: string; name: string; removed: boolean };
  right: { id: string; name: string; removed: boolean };
  progress: { current: number; total: number };
  status: 'active' | 'done' | 'failed';
  resultRecordId: string | null;
  matches: Array<z.output<typeof linkMatchSchema>>;
  totRows: { left: number; right: number } | null;
  createdAt: Date;
  completedAt: Date | null;
}

/** The spec's job fields; `withMatches` false leaves a LINK job's row pairs out (the list shows their count). */
export function jobView(job: Job, withMatches: boolean): z.output<typeof jobViewSchema> {
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
      total_matches: job.matches.length,
      ...(withMatches ? { matches: job.matches } : {}),
      tot_rows: job.totRows,
    },
  };
}
