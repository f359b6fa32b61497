import { Injectable } from '@nestjs/common';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import { FieldValidationError } from '@dc/platform';

export const PASSWORD_TOO_COMMON = 'This password is too common or too easy to guess. Use a few uncommon words or a longer phrase.';
export const PASSWORD_LIKE_USERNAME = 'The password is too similar to the username.';
export const PASSWORD_NOT_NEW = 'The new password must be different from the current one.';

/**
 * zxcvbn's score: 0 and 1 mean fewer than a million guesses (`password`, `12345678`, `P@ssw0rd`,
 * keyboard walks, a common word and a year); from 2 on, a guesser needs far more than the login
 * throttle lets through.
 */
const MIN_SCORE = 2;

/** Who the password is for: what it must not be made of. */
export interface PasswordOwner {
  username: string;
  email?: string;
  firstName?: string;
  lastName?: string;
}

/**
 * The rules a new password meets at sign-up, change, reset and when an admin sets one: not in the
 * lists of common passwords, words and names zxcvbn keeps (estimated with them and the owner's own
 * names), and not the username or built around it.
 */
@Injectable()
export class PasswordPolicy {
  private readonly estimator = new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });

  /** The field error messages for this password, none when it is acceptable. */
  problems(password: string, owner: PasswordOwner): string[] {
    const username = owner.username.trim().toLowerCase();
    const candidate = password.trim().toLowerCase();
    if (username.length >= 3 && (candidate.includes(username) || username.includes(candidate))) return [PASSWORD_LIKE_USERNAME];
    const ownWords = [owner.username, owner.email ?? '', owner.email?.split('@')[0] ?? '', owner.firstName ?? '', owner.lastName ?? ''].filter(
      (word) => word.length >= 3,
    );
    return this.estimator.check(password, ownWords).score < MIN_SCORE ? [PASSWORD_TOO_COMMON] : [];
  }

  /** Throws the field error (400 `{field: [message]}`) when the password is refused. */
  assertAcceptable(field: string, password: string, owner: PasswordOwner): void {
    const problems = this.problems(password, owner);
    if (problems.length) throw new FieldValidationError({ [field]: problems });
  }
}
