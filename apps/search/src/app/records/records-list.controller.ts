import { Controller, Get, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ApiContract, AuthUser, CurrentUser, Public } from '@dc/platform';
import { recordCardSchema, RecordsListParams, RecordsListService } from './records-list.service';
import { z } from 'zod';

const recordsListQuery = z.object({
  query: z.string().optional().describe('words to search for'),
  view: z.enum(['own', 'all']).optional(),
  page: z.number().int().min(1).optional(),
  page_size: z.number().int().min(1).optional(),
  group: z.string().optional().describe('a project id'),
  refid: z.string().optional().describe('find datasets similar to this record'),
});
/** Record cards; their fields follow the record's (spec section 2, Record card). */
const recordCardPageSchema = z.object({
  count: z.number().int(),
  count_capped: z.literal(true).optional().describe('the index stopped counting at its limit: count means "at least"'),
  next: z.string().nullable(),
  previous: z.string().nullable(),
  results: z.array(recordCardSchema),
});

const requestUrl = (req: Request) => `${req.protocol}://${req.get('host')}${req.originalUrl}`;

@Controller('api')
export class RecordsListController {
  constructor(private readonly records: RecordsListService) {}

  /** Signed-in list: EV, the caller's organisation's records, and CU records shared with them. */
  @ApiContract({ summary: 'Search records the caller may see, paged (20 by default)', query: recordsListQuery, responses: { 200: recordCardPageSchema } })
  @Get('records')
  list(@Query() params: RecordsListParams, @CurrentUser() user: AuthUser, @Req() req: Request) {
    return this.records.list(params, { userId: user.id, organisationId: user.organisationId, permissions: user.permissions }, requestUrl(req));
  }

  /** Anonymous list: EV records only. */
  @ApiContract({ summary: 'Search records visible to everyone (anonymous)', query: recordsListQuery, responses: { 200: recordCardPageSchema } })
  @Public()
  @Get('recordsannon')
  listAnonymous(@Query() params: RecordsListParams, @Req() req: Request) {
    return this.records.list({ ...params, view: 'all' }, null, requestUrl(req));
  }
}
