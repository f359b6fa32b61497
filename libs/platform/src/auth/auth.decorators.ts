import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { AuthUser } from './auth-user';

export const IS_PUBLIC = 'dc:isPublic';

/** Reachable without a token (a valid token still identifies the caller; an invalid one is refused). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/** The signed-in caller, or null on a public route called anonymously. */
export const CurrentUser = createParamDecorator((_data: unknown, context: ExecutionContext): AuthUser | null => {
  const request = context.switchToHttp().getRequest<{ user?: AuthUser }>();
  return request.user ?? null;
});
