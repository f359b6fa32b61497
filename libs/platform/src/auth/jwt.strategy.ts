import { createSecretKey } from 'node:crypto';
import { CanActivate, ExecutionContext, Inject, Injectable, Type, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard, PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { ExtractJwt, Strategy } from 'passport-jwt';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../tokens';
import { AuthUser, claimsToUser, TokenClaims } from './auth-user';
import { IS_PUBLIC } from './auth.decorators';
import { TokenChecks } from './token-checks';

/** The 401 answer to a missing, forged, expired or no longer current token. */
export const INVALID_TOKEN_DETAIL = 'Invalid or expired token. Please log in again.';

/** `Authorization: JWT <token>`, as the client sends it. */
export const extractToken = ExtractJwt.fromAuthHeaderWithScheme('JWT');

let apps = 0;

/**
 * The passport JWT strategy and the guard of one app: signature (HS256, this app's JWT_SECRET),
 * expiry, then the registered token checks. Passport keeps strategies in one process-wide registry
 * by name, so each app registers its own under a name of its own: two apps in one process (tests)
 * keep their own secrets and checks instead of the last one taking over.
 */
export function createJwtAuth(): { JwtStrategy: Type<unknown>; JwtAuthGuard: Type<CanActivate> } {
  const name = `jwt-${++apps}`;

  @Injectable()
  class JwtStrategy extends PassportStrategy(Strategy, name) {
    constructor(
      @Inject(APP_CONFIG) config: AppConfig,
      private readonly checks: TokenChecks,
    ) {
      // A key object made once: given the secret as a string, jsonwebtoken makes one on every call.
      const key = createSecretKey(Buffer.from(config.JWT_SECRET!, 'utf8'));
      super({ jwtFromRequest: extractToken, secretOrKey: key as unknown as string, algorithms: ['HS256'], ignoreExpiration: false });
    }

    /** A false result makes the guard answer 401. */
    async validate(claims: TokenClaims): Promise<AuthUser | false> {
      const user = claimsToUser(claims);
      return (await this.checks.isCurrent(user)) ? user : false;
    }
  }

  /** Every route needs a valid token unless marked @Public(). */
  @Injectable()
  class JwtAuthGuard extends AuthGuard(name) {
    constructor(private readonly reflector: Reflector) {
      super();
    }

    override async canActivate(context: ExecutionContext): Promise<boolean> {
      const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
      if (isPublic && !extractToken(context.switchToHttp().getRequest<Request>())) return true;
      return (await super.canActivate(context)) as boolean;
    }

    override handleRequest<TUser>(error: unknown, user: TUser | false): TUser {
      if (error || !user) throw new UnauthorizedException({ detail: INVALID_TOKEN_DETAIL });
      return user;
    }
  }

  return { JwtStrategy, JwtAuthGuard };
}
