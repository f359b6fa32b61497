import { Controller, Get, Query, Redirect } from '@nestjs/common';
import { ApiContract, Public } from '@dc/platform';
import { IdentityMailer } from '../mail/identity-mailer';
import { ActivationService } from './activation.service';
import { z } from 'zod';

/** The link of the activation mail. Under /api/register so the gateway routes it to identity. */
@Controller('api/register/activate')
export class ActivationController {
  constructor(
    private readonly activation: ActivationService,
    private readonly links: IdentityMailer,
  ) {}

  /** Activates, then sends the browser to the login page: `#/login?activated=1` (or `=0`). */
  @ApiContract({
    summary: 'Activate an account from the mailed link; redirects to the login page (`#/login?activated=1` or `=0`)',
    query: z.object({ token: z.string() }),
    responses: { 302: null },
  })
  @Public()
  @Get()
  @Redirect()
  async activate(@Query('token') token: unknown) {
    const activated = await this.activation.activate(token);
    return { url: this.links.loginAfterActivation(activated), statusCode: 302 };
  }
}
