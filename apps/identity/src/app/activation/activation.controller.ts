import { Controller, Get, Query, Redirect } from '@nestjs/common';
import { Public } from '@dc/platform';
import { IdentityMailer } from '../mail/identity-mailer';
import { ActivationService } from './activation.service';

/** The link of the activation mail. Under /api/register so the gateway routes it to identity. */
@Controller('api/register/activate')
export class ActivationController {
  constructor(
    private readonly activation: ActivationService,
    private readonly links: IdentityMailer,
  ) {}

  /** Activates, then sends the browser to the login page: `#/login?activated=1` (or `=0`). */
  @Public()
  @Get()
  @Redirect()
  async activate(@Query('token') token: unknown) {
    const activated = await this.activation.activate(token);
    return { url: this.links.loginAfterActivation(activated), statusCode: 302 };
  }
}
