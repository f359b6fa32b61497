import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiContract, Public, SchemaPipe, messageResponseSchema } from '@dc/platform';
import { ResetConfirmDto, resetConfirmSchema, ResetRequestDto, resetRequestSchema } from './dto/password-reset.dto';
import { PasswordResetService } from './password-reset.service';
import { z } from 'zod';

@Controller('api/password')
export class PasswordResetController {
  constructor(private readonly resets: PasswordResetService) {}

  /** `{email}` → always `{message}`; mails a link to `#/passreset?token=...&email=...` if the account exists. */
  @ApiContract({
    summary: 'Mail a password reset link (the answer does not tell whether the address has an account)',
    body: resetRequestSchema,
    responses: { 200: messageResponseSchema },
  })
  @Public()
  @Post('confirm')
  @HttpCode(200)
  request(@Body(new SchemaPipe(resetRequestSchema)) dto: ResetRequestDto) {
    return this.resets.requestReset(dto.email);
  }

  /** `{email, token, password, password_confirm}` → `{message, status: "success"}`. */
  @ApiContract({
    summary: 'Set a new password with the token from the mail',
    body: resetConfirmSchema,
    responses: { 200: z.object({ message: z.string(), status: z.literal('success') }) },
  })
  @Public()
  @Post('check')
  @HttpCode(200)
  check(@Body(new SchemaPipe(resetConfirmSchema)) dto: ResetConfirmDto) {
    return this.resets.confirm(dto);
  }
}
