import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ApiContract, Public, SchemaPipe } from '@dc/platform';
import { LoginDto, loginSchema } from './dto/login.dto';
import { LoginService } from './login.service';
import { z } from 'zod';

@Controller('api-token-auth')
export class LoginController {
  constructor(private readonly login: LoginService) {}

  /** `{username, password}` (or `{username: api_token, password: api_secret}`) → `{token}`. */
  @ApiContract({
    summary: 'Exchange a username and password (or an API token and secret) for a JWT valid 24 hours',
    body: loginSchema,
    requestExample: { username: 'ada', password: 'correct horse battery staple' },
    responses: { 200: z.object({ token: z.string() }) },
    example: { token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9…' },
  })
  @Public()
  @Post()
  @HttpCode(200)
  token(@Body(new SchemaPipe(loginSchema)) dto: LoginDto, @Req() req: Request) {
    // req.ip honours the platform's "trust proxy" setting (the gateway's X-Forwarded-For on loopback).
    return this.login.login(dto, req.ip ?? req.socket.remoteAddress);
  }
}
