import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { permissionsOfGroups } from '@dc/contracts';
import type { TokenClaims } from '@dc/platform';
import { Account } from '../accounts/account';

/** Signs the 24-hour JWT (lifetime and secret come from the platform's JwtModule). */
@Injectable()
export class TokenIssuer {
  constructor(private readonly jwt: JwtService) {}

  issue(account: Account): Promise<string> {
    const claims: TokenClaims = {
      sub: account.id,
      username: account.username,
      org: account.organisationId,
      ct: account.clientType,
      perms: permissionsOfGroups(account.groups),
      groups: [...account.groups].sort((a, b) => a - b),
      pv: account.passwordVersion,
      jti: randomUUID(),
    };
    return this.jwt.signAsync(claims);
  }
}
