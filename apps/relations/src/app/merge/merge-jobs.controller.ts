import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiContract, AuthUser, CurrentUser, SchemaPipe } from '@dc/platform';
import type { z } from 'zod';
import { mergeFeaturesSchema, recordPairSchema } from '../compare/dto';
import { jobsStartedResponseSchema } from '../compare/responses';
import { MergeJobsService } from './merge-jobs.service';

const LEFT = '0e6c2d1a-3b4f-4c5d-8e6f-7a8b9c0d1e2f';
const RIGHT = '9a1f2b3c-4d5e-4f60-8a7b-1c2d3e4f5a6b';
const started = (type: 'MERGE' | 'LINK', message: string) => ({
  nodata: false,
  nottabular: false,
  nomatches: false,
  newmerges: [
    {
      job_id: '5b0f3c1e-8a4d-4f0e-9c57-2f1d9a6b7e10',
      type,
      record_left_id: LEFT,
      record_left_name: 'Rainfall',
      record_right_id: RIGHT,
      record_right_name: 'Stations',
    },
  ],
  messages: [message],
});

/**
 * Starting merges and links (spec section 7, Relations). Signed-in callers only. Each answers
 * { nodata, nottabular, nomatches, newmerges: [{ job_id, type, record_left_id, ... }], messages }.
 */
@Controller('api/relations')
export class MergeJobsController {
  constructor(private readonly jobs: MergeJobsService) {}

  /** Merge Horizontal or Merge Vertical on the field pairs chosen from the Merge Scan Results. */
  @ApiContract({
    summary: 'Merge Horizontal or Merge Vertical: one MERGE job per pair of records, on the chosen field pairs',
    body: mergeFeaturesSchema,
    requestExample: { merge_relations: [{ record_left: LEFT, record_right: RIGHT, header_left: 'station_id', header_right: 'id' }], merge_type: 'horizontal' },
    responses: { 200: jobsStartedResponseSchema },
    example: started('MERGE', 'New merge job was successfully initiated.'),
  })
  @Post('merge-features')
  @HttpCode(200)
  mergeFeatures(@CurrentUser() user: AuthUser, @Body(new SchemaPipe(mergeFeaturesSchema)) body: z.output<typeof mergeFeaturesSchema>) {
    return this.jobs.mergeFeatures(user, body.merge_relations, body.merge_type);
  }

  /** The linking result's merge button: merge two records on the hashed columns they share. */
  @ApiContract({
    summary: 'Merge two records on the hashed columns they share (400 when they share none)',
    body: recordPairSchema,
    requestExample: { record_left: LEFT, record_right: RIGHT, merge_type: 'horizontal' },
    responses: { 200: jobsStartedResponseSchema },
    example: started('MERGE', 'New merge job was successfully initiated.'),
  })
  @Post('merge-enc-cols')
  @HttpCode(200)
  mergeHashedColumns(@CurrentUser() user: AuthUser, @Body(new SchemaPipe(recordPairSchema)) body: z.output<typeof recordPairSchema>) {
    return this.jobs.mergeHashedColumns(user, body.record_left, body.record_right, body.merge_type);
  }

  /** Link Datasets: a LINK job over two records with hashed headers. */
  @ApiContract({
    summary: "Link Datasets: a LINK job matching two records' rows on their hashed columns (400 when they share none)",
    body: recordPairSchema,
    requestExample: { record_left: LEFT, record_right: RIGHT },
    responses: { 200: jobsStartedResponseSchema },
    example: started('LINK', 'New link job was successfully initiated.'),
  })
  @Post('link-records')
  @HttpCode(200)
  link(@CurrentUser() user: AuthUser, @Body(new SchemaPipe(recordPairSchema)) body: z.output<typeof recordPairSchema>) {
    return this.jobs.link(user, body.record_left, body.record_right);
  }
}
