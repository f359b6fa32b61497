export type ClientType = 'STANDARD' | 'BASIC';

/** Who is calling, as carried by the JWT. */
export interface AuthUser {
  id: string;
  username: string;
  organisationId: string;
  clientType: ClientType;
  permissions: string[];
  groups: number[];
  /** The password version the token was issued for (see TokenClaims.pv). */
  passwordVersion: number;
  /** The token's own id (jti), by which logout ends it; absent from tokens issued before logout ended them. */
  tokenId?: string;
  /** When the token expires (seconds since the epoch). */
  expiresAt?: number;
}

/** The claims we sign; short names keep the header small. */
export interface TokenClaims {
  sub: string;
  username: string;
  org: string;
  ct: ClientType;
  perms: string[];
  groups: number[];
  /** Password version: a password change bumps it and identity rejects older tokens. */
  pv: number;
  /** Token id: logout records it as revoked until the token expires. */
  jti?: string;
  exp?: number;
}

export const TOKEN_LIFETIME_SECONDS = 24 * 60 * 60;

export function claimsToUser(claims: TokenClaims): AuthUser {
  return {
    id: claims.sub,
    username: claims.username,
    organisationId: claims.org,
    clientType: claims.ct,
    permissions: claims.perms ?? [],
    groups: claims.groups ?? [],
    passwordVersion: claims.pv ?? 0,
    tokenId: claims.jti,
    expiresAt: claims.exp,
  };
}
