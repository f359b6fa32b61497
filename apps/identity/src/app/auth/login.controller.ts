import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { Public, SchemaPipe } from '@dc/platform';
import { LoginDto, loginSchema } from './dto/login.dto';
import { LoginService } from './login.service';

@Controller('api-token-auth')
export class LoginController {
  constructor(private readonly login: LoginService) {}

  /** `{username, password}` (or `{username: api_token, password: api_secret}`) → `{token}`. */
  @Public()
  @Post()
  @HttpCode(200)
  token(@Body(new SchemaPipe(loginSchema)) dto: LoginDto, @Req() req: Request) {
    // req.ip honours the platform's "trust proxy" setting (the gateway's X-Forwarded-For on loopback).
    return this.login.login(dto, req.ip ?? req.socket.remoteAddress);
  }
}
