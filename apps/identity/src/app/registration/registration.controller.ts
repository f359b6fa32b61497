import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ApiContract, Public, SchemaPipe } from '@dc/platform';
import { LoginThrottle } from '../auth/login-throttle';
import { RegisterDto, registerSchema } from './dto/register.dto';
import { RegistrationService } from './registration.service';
import { z } from 'zod';

@Controller('api/register')
export class RegistrationController {
  constructor(
    private readonly registration: RegistrationService,
    private readonly throttle: LoginThrottle,
  ) {}

  @ApiContract({
    summary: 'Sign up: creates an inactive account and its organisation, and mails the activation link',
    body: registerSchema,
    responses: { 201: z.object({ message: z.string(), username: z.string(), email: z.string() }) },
  })
  @Public()
  @Post()
  @HttpCode(201)
  async register(@Body(new SchemaPipe(registerSchema)) dto: RegisterDto, @Req() req: Request) {
    await this.throttle.admitSignUp(req.ip ?? req.socket.remoteAddress);
    return this.registration.register(dto);
  }
}
