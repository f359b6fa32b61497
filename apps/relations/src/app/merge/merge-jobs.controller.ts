import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiContract, AuthUser, CurrentUser, SchemaPipe } from '@dc/platform';
import type { z } from 'zod';
import { LINK_RECORDS_CONTRACT, MERGE_FEATURES_CONTRACT, MERGE_HASHED_COLUMNS_CONTRACT, MERGE_PREVIEW_CONTRACT } from './merge-jobs.contract';
import { MergeJobsService } from './merge-jobs.service';
import { MergePreviewService } from './merge-preview.service';
import { linkRecordsSchema, mergeFeaturesSchema, recordPairSchema } from './merge.dto';

/**
 * Starting merges and links (spec section 7, Relations). Signed-in callers only. Each answers
 * { nodata, nottabular, nomatches, newmerges: [{ job_id, type, record_left_id, ... }], messages }.
 */
@Controller('api/relations')
export class MergeJobsController {
  constructor(
    private readonly jobs: MergeJobsService,
    private readonly previews: MergePreviewService,
  ) {}

  /** What Merge Horizontal or Merge Vertical would make of the chosen pairs (name, columns, rows), without starting it. */
  @ApiContract(MERGE_PREVIEW_CONTRACT)
  @Post('merge-preview')
  @HttpCode(200)
  mergePreview(@CurrentUser() user: AuthUser, @Body(new SchemaPipe(mergeFeaturesSchema)) body: z.output<typeof mergeFeaturesSchema>) {
    return this.previews.preview(user, body.merge_relations, body.merge_type);
  }

  /** Merge Horizontal or Merge Vertical on the field pairs chosen from the Merge Scan Results. */
  @ApiContract(MERGE_FEATURES_CONTRACT)
  @Post('merge-features')
  @HttpCode(200)
  mergeFeatures(@CurrentUser() user: AuthUser, @Body(new SchemaPipe(mergeFeaturesSchema)) body: z.output<typeof mergeFeaturesSchema>) {
    return this.jobs.mergeFeatures(user, body.merge_relations, body.merge_type);
  }

  /** The linking result's merge button: merge two records on the hashed columns they share. */
  @ApiContract(MERGE_HASHED_COLUMNS_CONTRACT)
  @Post('merge-enc-cols')
  @HttpCode(200)
  mergeHashedColumns(@CurrentUser() user: AuthUser, @Body(new SchemaPipe(recordPairSchema)) body: z.output<typeof recordPairSchema>) {
    return this.jobs.mergeHashedColumns(user, body.record_left, body.record_right, body.merge_type);
  }

  /** Link Datasets: a LINK job over two records with hashed headers, or on the column pairs given. */
  @ApiContract(LINK_RECORDS_CONTRACT)
  @Post('link-records')
  @HttpCode(200)
  link(@CurrentUser() user: AuthUser, @Body(new SchemaPipe(linkRecordsSchema)) body: z.output<typeof linkRecordsSchema>) {
    return this.jobs.link(user, body.record_left, body.record_right, body.pairs);
  }
}
