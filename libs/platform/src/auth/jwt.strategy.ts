import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { JwtService } from '@nestjs/jwt';
import type { Request } from 'express';
import { ExtractJwt } from 'passport-jwt';
import { AuthUser, claimsToUser, TokenClaims } from './auth-user';
import { IS_PUBLIC } from './auth.decorators';
import { TokenChecks } from './token-checks';

/** The 401 answer to a missing, forged, expired or no longer current token. */
export const INVALID_TOKEN_DETAIL = 'Invalid or expired token. Please log in again.';

/** `Authorization: JWT <token>`, as the client sends it. */
export const extractToken = ExtractJwt.fromAuthHeaderWithScheme('JWT');

/**
 * Turns a token into the caller: signature (HS256, this app's JWT_SECRET), expiry, then the
 * registered token checks. Held by each app rather than in passport's process-wide strategy
 * registry, so two apps in one process (tests) keep their own secrets and checks.
 */
@Injectable()
export class JwtStrategy {
  constructor(
    private readonly jwt: JwtService,
    private readonly checks: TokenChecks,
  ) {}

  /** The caller, or null when the token is not one this app accepts now. */
  async authenticate(token: string): Promise<AuthUser | null> {
    let claims: TokenClaims;
    try {
      claims = await this.jwt.verifyAsync<TokenClaims>(token, { algorithms: ['HS256'] });
    } catch {
      return null;
    }
    const user = claimsToUser(claims);
    return (await this.checks.isCurrent(user)) ? user : null;
  }
}

/** Every route needs a valid token unless marked @Public(). */
@Injectable()
export class JwtAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly strategy: JwtStrategy,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    const request = context.switchToHttp().getRequest<Request & { user?: AuthUser }>();
    const token = extractToken(request);
    if (!token && isPublic) return true;
    const user = token ? await this.strategy.authenticate(token) : null;
    if (!user) throw new UnauthorizedException({ detail: INVALID_TOKEN_DETAIL });
    request.user = user;
    return true;
  }
}
