import { Controller, Get, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { AuthUser, CurrentUser, Public } from '@dc/platform';
import { RecordsListParams, RecordsListService } from './records-list.service';

const requestUrl = (req: Request) => `${req.protocol}://${req.get('host')}${req.originalUrl}`;

@Controller('api')
export class RecordsListController {
  constructor(private readonly records: RecordsListService) {}

  /** Signed-in list: EV, the caller's organisation's records, and CU records shared with them. */
  @Get('records')
  list(@Query() params: RecordsListParams, @CurrentUser() user: AuthUser, @Req() req: Request) {
    return this.records.list(params, { userId: user.id, organisationId: user.organisationId, permissions: user.permissions }, requestUrl(req));
  }

  /** Anonymous list: EV records only. */
  @Public()
  @Get('recordsannon')
  listAnonymous(@Query() params: RecordsListParams, @Req() req: Request) {
    return this.records.list({ ...params, view: 'all' }, null, requestUrl(req));
  }
}
