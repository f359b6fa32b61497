import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';
import { randomBytes } from 'node:crypto';

/** Port: how passwords are hashed and checked. */
export abstract class PasswordHasher {
  private dummyHash?: Promise<string>;

  abstract hash(password: string): Promise<string>;
  abstract verify(hash: string, password: string): Promise<boolean>;

  /** Costs as much as a real check, so an unknown account answers as slowly as a known one. */
  async verifyAgainstNothing(password: string): Promise<false> {
    this.dummyHash ??= this.hash(randomBytes(18).toString('base64'));
    await this.verify(await this.dummyHash, password);
    return false;
  }
}

/**
 * argon2id (prebuilt binaries, no compiler needed) with OWASP's recommended settings: 19 MiB,
 * 2 passes, 1 lane. About 0.1 s per check, which keeps logins affordable to serve and guesses
 * expensive. The settings are stored in each hash, so changing them later keeps old hashes valid.
 */
export const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

@Injectable()
export class Argon2PasswordHasher extends PasswordHasher {
  hash(password: string): Promise<string> {
    return argon2.hash(password, ARGON2_OPTIONS);
  }

  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }
}
