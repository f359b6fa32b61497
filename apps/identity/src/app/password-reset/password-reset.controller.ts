import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { Public, SchemaPipe } from '@dc/platform';
import { ResetConfirmDto, resetConfirmSchema, ResetRequestDto, resetRequestSchema } from './dto/password-reset.dto';
import { PasswordResetService } from './password-reset.service';

@Controller('api/password')
export class PasswordResetController {
  constructor(private readonly resets: PasswordResetService) {}

  /** `{email}` → always `{message}`; mails a link to `#/passreset?token=...&email=...` if the account exists. */
  @Public()
  @Post('confirm')
  @HttpCode(200)
  request(@Body(new SchemaPipe(resetRequestSchema)) dto: ResetRequestDto) {
    return this.resets.requestReset(dto.email);
  }

  /** `{email, token, password, password_confirm}` → `{message, status: "success"}`. */
  @Public()
  @Post('check')
  @HttpCode(200)
  check(@Body(new SchemaPipe(resetConfirmSchema)) dto: ResetConfirmDto) {
    return this.resets.confirm(dto);
  }
}
