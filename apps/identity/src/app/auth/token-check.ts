import { Injectable, OnModuleInit } from '@nestjs/common';
import { isUuid, UserRegistered, UserUpdated } from '@dc/contracts';
import { AuthUser, ServiceDatabase, TokenChecks } from '@dc/platform';
import { Account } from '../accounts/account';
import { LoginRepository } from './login.repository';
import { RevocationList } from './revocation-list';

/**
 * How long a looked-up account answers token checks. Every change identity commits in this process
 * forgets it at once (user.* events, see below); the lifetime bounds how long another identity
 * process (distributed mode, several instances) may take to see a change: seconds.
 */
export const ACCOUNT_CACHE_TTL_MS = 2_000;
const MAX_CACHED_ACCOUNTS = 10_000;

/** What a token is checked against; the groups as one key, made once per lookup rather than per call. */
type TokenFields = Pick<Account, 'active' | 'passwordVersion' | 'clientType' | 'username' | 'organisationId'> & { groups: string };

/**
 * Makes a validly signed token stale as soon as its account changes in a way the token carries:
 * deleted or deactivated, a new password (password version), other groups, client type or
 * username, or ended by logout. So the permissions in a current token are always the account's own. Runs in this
 * process for every service module it hosts (all of them in embedded mode).
 *
 * Every authenticated call asks this, so the account is remembered briefly instead of read from
 * PostgreSQL each time; a commit that changes an account (it records user.updated) forgets it.
 * Logouts are looked up in the revocation list held in memory (kept in step across processes).
 */
@Injectable()
export class CurrentAccountTokenCheck implements OnModuleInit {
  private readonly cache = new Map<string, { account: TokenFields | null; until: number }>();
  /** Bumped by every forget, so a lookup that raced a change is not remembered after it. */
  private generation = 0;

  constructor(
    private readonly checks: TokenChecks,
    private readonly accounts: LoginRepository,
    private readonly revoked: RevocationList,
    private readonly db: ServiceDatabase,
  ) {}

  /** Overridable clock (tests). */
  now: () => number = Date.now;

  onModuleInit(): void {
    this.checks.register((user) => this.isCurrent(user));
    this.db.onCommitted((events) => {
      for (const event of events) if (event.type === UserUpdated.type || event.type === UserRegistered.type) this.forget();
    });
  }

  async isCurrent(user: AuthUser): Promise<boolean> {
    if (!isUuid(user.id)) return false;
    const account = await this.account(user.id);
    if (!account || !account.active) return false;
    if (user.tokenId && (await this.revoked.isRevoked(user.tokenId))) return false;
    return (
      account.passwordVersion === user.passwordVersion &&
      account.clientType === user.clientType &&
      account.username === user.username &&
      account.organisationId === user.organisationId &&
      account.groups === groupsKey(user.groups)
    );
  }

  /** Forgets every remembered account: account changes are rare, and forgetting all is never wrong. */
  forget(): void {
    this.generation += 1;
    this.cache.clear();
  }

  private async account(id: string): Promise<TokenFields | null> {
    const cached = this.cache.get(id);
    if (cached && cached.until > this.now()) return cached.account;
    const generation = this.generation;
    const found = await this.accounts.findById(id);
    const account = found && {
      active: found.active,
      passwordVersion: found.passwordVersion,
      clientType: found.clientType,
      username: found.username,
      organisationId: found.organisationId,
      groups: groupsKey(found.groups),
    };
    if (generation === this.generation) {
      this.cache.delete(id);
      if (this.cache.size >= MAX_CACHED_ACCOUNTS) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(id, { account, until: this.now() + ACCOUNT_CACHE_TTL_MS });
    }
    return account;
  }
}

/** The same key for the same set of groups, whatever their order or repeats. */
const groupsKey = (groups: number[]) => [...new Set(groups)].sort((x, y) => x - y).join(',');
