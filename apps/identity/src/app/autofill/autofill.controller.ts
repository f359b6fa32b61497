import { Controller, Get, Query } from '@nestjs/common';
import { ApiContract } from '@dc/platform';
import { AutofillService } from './autofill.service';
import { z } from 'zod';

const autofillQuery = z.object({ q: z.string().optional().describe('lowercase substring of the name') });
const autofillEntry = z.object({ id: z.string(), name: z.string() });

/** Signed-in callers only; optional `q` filters by lowercase substring. Answers `[{id, name}]`. */
@Controller('api')
export class AutofillController {
  constructor(private readonly autofill: AutofillService) {}

  /** Active users, named "First Last (username)". */
  @ApiContract({ summary: 'Active users for the custom visibility list', query: autofillQuery, responses: { 200: z.array(autofillEntry) } })
  @Get('userprofile-autofill-list')
  users(@Query('q') q: unknown) {
    return this.autofill.users(q);
  }

  /** Organisations with an active member. */
  @ApiContract({
    summary: 'Organisations with an active member, for the custom visibility list',
    query: autofillQuery,
    responses: { 200: z.array(autofillEntry) },
  })
  @Get('organisation-autofill-list')
  organisations(@Query('q') q: unknown) {
    return this.autofill.organisations(q);
  }
}
