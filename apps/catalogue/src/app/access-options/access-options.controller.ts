import { Controller, Get } from '@nestjs/common';
import { ApiContract, AuthUser, CurrentUser, Public } from '@dc/platform';
import { ACCESS_OPTIONS, CURRENCY_OPTIONS, visibilityOptionsFor } from '../record-model/access-options';
import { accessOptionsSchema } from '../record-view/record-view';

@Controller('api/accessoptions')
export class AccessOptionsController {
  /** Lists of [label, code] pairs; a BASIC caller is offered EV only. */
  @ApiContract({
    summary: 'Visibility, access and currency options as [label, code] pairs (a BASIC caller is offered EV only)',
    responses: { 200: accessOptionsSchema },
  })
  @Public()
  @Get()
  options(@CurrentUser() user: AuthUser | null) {
    return { visibility_options: visibilityOptionsFor(user?.clientType), access_options: ACCESS_OPTIONS, currency_options: CURRENCY_OPTIONS };
  }
}
