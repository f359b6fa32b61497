import { Controller, Get } from '@nestjs/common';
import { AuthUser, CurrentUser, Public } from '@dc/platform';
import { ACCESS_OPTIONS, CURRENCY_OPTIONS, visibilityOptionsFor } from './access-options';

@Controller('api/accessoptions')
export class AccessOptionsController {
  /** Lists of [label, code] pairs; a BASIC caller is offered EV only. */
  @Public()
  @Get()
  options(@CurrentUser() user: AuthUser | null) {
    return { visibility_options: visibilityOptionsFor(user?.clientType), access_options: ACCESS_OPTIONS, currency_options: CURRENCY_OPTIONS };
  }
}
