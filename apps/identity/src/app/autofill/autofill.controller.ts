import { Controller, Get, Query } from '@nestjs/common';
import { AutofillService } from './autofill.service';

/** Signed-in callers only; optional `q` filters by lowercase substring. Answers `[{id, name}]`. */
@Controller('api')
export class AutofillController {
  constructor(private readonly autofill: AutofillService) {}

  /** Active users, named "First Last (username)". */
  @Get('userprofile-autofill-list')
  users(@Query('q') q: unknown) {
    return this.autofill.users(q);
  }

  /** Organisations with an active member. */
  @Get('organisation-autofill-list')
  organisations(@Query('q') q: unknown) {
    return this.autofill.organisations(q);
  }
}
