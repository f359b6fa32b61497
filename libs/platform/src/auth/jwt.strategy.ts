import { ExecutionContext, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard, PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { APP_CONFIG } from '../tokens';
import type { AppConfig } from '../config/config';
import { AuthUser, claimsToUser, TokenClaims } from './auth-user';
import { IS_PUBLIC } from './auth.decorators';
import { TokenChecks } from './token-checks';

/** `Authorization: JWT <token>`, as the client sends it. */
export const extractToken = ExtractJwt.fromAuthHeaderWithScheme('JWT');

@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly checks: TokenChecks,
  ) {
    super({ jwtFromRequest: extractToken, secretOrKey: config.JWT_SECRET!, algorithms: ['HS256'], ignoreExpiration: false });
  }

  /** A false result makes the guard answer 401. */
  async validate(claims: TokenClaims): Promise<AuthUser | false> {
    const user = claimsToUser(claims);
    return (await this.checks.isCurrent(user)) ? user : false;
  }
}

/** Every route needs a valid token unless marked @Public(). */
@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    const request = context.switchToHttp().getRequest<Request>();
    if (isPublic && !extractToken(request)) return true;
    return (await super.canActivate(context)) as boolean;
  }

  override handleRequest<TUser>(error: unknown, user: TUser | false): TUser {
    if (error || !user) throw new UnauthorizedException({ detail: 'Invalid or expired token. Please log in again.' });
    return user;
  }
}
