import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiContract, AuthUser, CurrentUser, SchemaPipe } from '@dc/platform';
import type { z } from 'zod';
import { jobDeletedSchema, jobSchema, jobsListSchema, jobsPageSchema, jobViewSchema } from './dto';
import { JobsService } from './jobs.service';

const JOB_EXAMPLE = {
  job_id: '5b0f3c1e-8a4d-4f0e-9c57-2f1d9a6b7e10',
  type: 'MERGE',
  progress: { current: 3, total: 3 },
  info: 'Merge of Rainfall and Stations: horizontal merge on station_id.',
  is_active: false,
  status: 'complete',
  failed: false,
  created: '2026-11-25T08:00:00.000Z',
  completed: '2026-11-25T08:00:04.000Z',
  content: {
    record_left_name: 'Rainfall',
    record_left_id: '0e6c2d1a-3b4f-4c5d-8e6f-7a8b9c0d1e2f',
    record_left_removed: false,
    record_right_name: 'Stations',
    record_right_id: '9a1f2b3c-4d5e-4f60-8a7b-1c2d3e4f5a6b',
    record_right_removed: false,
    result_record_id: 'c4d5e6f7-0a1b-4c2d-9e3f-5a6b7c8d9e0f',
    total_matches: 0,
    withheld: null,
    tot_rows: null,
  },
};

/** Spec section 7 "Jobs". Signed-in callers only (the global guard), each seeing only their own jobs. */
@Controller('api/tasks')
export class JobsController {
  constructor(private readonly jobs: JobsService) {}

  @ApiContract({
    summary: "The caller's LINK and MERGE jobs, newest first (only the running ones with active_flag)",
    body: jobsListSchema,
    requestExample: { active_flag: true, page_size: 100 },
    responses: { 200: jobsPageSchema },
    example: { count: 1, next: null, previous: null, results: [JOB_EXAMPLE] },
  })
  @Post('jobs-list')
  @HttpCode(200)
  list(@CurrentUser() user: AuthUser, @Body(new SchemaPipe(jobsListSchema)) body: z.output<typeof jobsListSchema>) {
    return this.jobs.list(user, body.active_flag, body);
  }

  @ApiContract({
    summary: 'One job of the caller with its content (a LINK job with its matched row pairs)',
    body: jobSchema,
    requestExample: { job: JOB_EXAMPLE.job_id },
    responses: { 200: jobViewSchema },
    example: JOB_EXAMPLE,
  })
  @Post('job-content')
  @HttpCode(200)
  content(@CurrentUser() user: AuthUser, @Body(new SchemaPipe(jobSchema)) body: z.output<typeof jobSchema>) {
    return this.jobs.content(user, body.job);
  }

  @ApiContract({
    summary: 'Delete a job of the caller (404 "Job delete failed." for any other)',
    body: jobSchema,
    requestExample: { job: JOB_EXAMPLE.job_id },
    responses: { 200: jobDeletedSchema },
    example: { detail: 'Job deleted.' },
  })
  @Post('job-delete')
  @HttpCode(200)
  delete(@CurrentUser() user: AuthUser, @Body(new SchemaPipe(jobSchema)) body: z.output<typeof jobSchema>) {
    return this.jobs.delete(user, body.job);
  }
}
