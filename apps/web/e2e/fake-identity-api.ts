import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from './web-server';

/**
 * A stateful stand-in for the identity service's HTTP API (the paths and shapes agreed for spec
 * section 7), so the browser tests can drive every screen rule without the real server. The real
 * product is exercised by identity-flow.e2e-spec.ts.
 */
/** Ids are UUIDs, as the identity service hands them out. */
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const ORGANISATION_ID = 'aaaaaaaa-0000-4000-8000-000000000007';

export interface FakeUser {
  id: string;
  username: string;
  password: string;
  first_name: string;
  last_name: string;
  email: string;
  client_type: 'STANDARD' | 'BASIC';
  groups: number[];
  permissions: string[];
  active: boolean;
  apiKeys?: { api_token: string; api_secret: string };
}

export interface RecordedCall {
  method: string;
  path: string;
  body: unknown;
  user?: string;
}

export const ALL_ACCOUNT_PERMISSIONS = [
  'account.add_userprofile',
  'account.change_userprofile',
  'account.delete_userprofile',
  'account.change_organisation',
];

const PASSWORD_RESET_TOKEN = 'valid-reset-token';

export class FakeIdentityApi {
  users: FakeUser[] = [];
  organisation = { id: ORGANISATION_ID, name: 'Ocean Lab', email: 'lab@example.org', description: 'Sea surface data.' };
  calls: RecordedCall[] = [];
  private tokens = new Map<string, string>();
  private counter = 0;

  constructor() {
    this.reset();
  }

  reset(): void {
    this.calls = [];
    this.tokens.clear();
    this.organisation = { id: ORGANISATION_ID, name: 'Ocean Lab', email: 'lab@example.org', description: 'Sea surface data.' };
    this.users = [
      { id: uuid(1), username: 'ada', password: 'correct horse', first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.org', client_type: 'STANDARD', groups: [1, 2, 3], permissions: [...ALL_ACCOUNT_PERMISSIONS], active: true },
      { id: uuid(2), username: 'vic', password: 'viewer pass', first_name: 'Vic', last_name: 'Viewer', email: 'vic@example.org', client_type: 'BASIC', groups: [3], permissions: [], active: true },
      { id: uuid(3), username: 'dan', password: 'data pass', first_name: 'Dan', last_name: 'Data', email: 'dan@example.org', client_type: 'BASIC', groups: [2, 3], permissions: [], active: true },
    ];
  }

  /** A token as the login call would hand out. */
  tokenFor(username: string): string {
    const user = this.users.find((u) => u.username === username);
    if (!user) throw new Error(`no user ${username}`);
    const token = `token-${username}-${++this.counter}`;
    this.tokens.set(token, user.id);
    return token;
  }

  user(username: string): FakeUser {
    const user = this.users.find((u) => u.username === username);
    if (!user) throw new Error(`no user ${username}`);
    return user;
  }

  callsTo(method: string, path: string): RecordedCall[] {
    return this.calls.filter((call) => call.method === method && call.path === path);
  }

  private caller(request: IncomingMessage): FakeUser | undefined {
    const token = /^JWT (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const id = token ? this.tokens.get(token) : undefined;
    return this.users.find((user) => user.id === id);
  }

  private revokeTokensOf(userId: string): void {
    for (const [token, id] of this.tokens) if (id === userId) this.tokens.delete(token);
  }

  private account(user: FakeUser) {
    return {
      id: user.id,
      username: user.username,
      first_name: user.first_name,
      last_name: user.last_name,
      email: user.email,
      client_type: user.client_type,
      groups: user.groups,
      active: user.active,
      date_joined: '2024-03-01T10:00:00Z',
    };
  }

  /** The ApiHandler for startWebServer. */
  handle = (request: IncomingMessage, rawBody: string, response: ServerResponse): boolean => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const path = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
    const method = request.method ?? 'GET';
    const body = (rawBody ? JSON.parse(rawBody) : {}) as Record<string, unknown>;
    const caller = this.caller(request);
    this.calls.push({ method, path, body: rawBody ? body : undefined, user: caller?.username });
    const str = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : '');

    // Anonymous calls.
    if (method === 'POST' && path === '/api-token-auth/') {
      const username = str('username');
      if (username === 'throttled') return sendJson(response, 429, { detail: 'Too many login attempts. Try again in 60 seconds.' });
      const user =
        this.users.find((u) => u.username === username && u.password === str('password') && u.active) ??
        this.users.find((u) => u.apiKeys?.api_token === username && u.apiKeys.api_secret === str('password'));
      if (!user) {
        return sendJson(response, 400, { non_field_errors: ['Unable to log in with provided credentials.', 'A second message the form does not show.'] });
      }
      return sendJson(response, 200, { token: this.tokenFor(user.username) });
    }
    if (method === 'POST' && path === '/api/register/') {
      const errors: Record<string, string[]> = {};
      if (this.users.some((u) => u.username === str('username'))) errors.username = ['A user with that username already exists.'];
      if (this.users.some((u) => u.email === str('email'))) errors.email = ['A user with that email already exists.'];
      if (Object.keys(errors).length) return sendJson(response, 400, errors);
      return sendJson(response, 201, { message: 'An email was sent to your account. Please confirm your account.', username: str('username'), email: str('email') });
    }
    if (method === 'POST' && path === '/api/password/confirm/') {
      if (str('email') === 'broken@example.org') return sendJson(response, 400, { non_field_errors: ['Mail could not be sent.', 'Second message.'] });
      return sendJson(response, 200, { message: 'If an account uses this email, we sent it a link to reset the password.' });
    }
    if (method === 'POST' && path === '/api/password/check/') {
      const user = this.users.find((u) => u.email === str('email'));
      if (!user || str('token') !== PASSWORD_RESET_TOKEN) {
        return sendJson(response, 400, { non_field_errors: ['The reset link is invalid or has expired.', 'A second message the form does not show.'] });
      }
      if (str('password').length < 8) return sendJson(response, 400, { password: ['This password is too short. It must contain at least 8 characters.'] });
      user.password = str('password');
      this.revokeTokensOf(user.id);
      return sendJson(response, 200, { message: 'Your password was updated.', status: 'ok' });
    }

    if (!path.startsWith('/api/account') && !path.startsWith('/api/change-') && !path.startsWith('/api/organisation/') && path !== '/api/user-api-keys/') {
      return false;
    }
    if (!caller) return sendJson(response, 401, { detail: 'Invalid or expired token. Please log in again.' });

    if (method === 'GET' && path === '/api/account/user-account/') {
      return sendJson(response, 200, {
        ...this.account(caller),
        permissions: caller.permissions,
        organisation: this.organisation.id,
        organisation_details: this.organisation,
      });
    }
    if (method === 'PUT' && path === '/api/change-profile-information/') {
      if (str('first_name').length > 20) return sendJson(response, 400, { first_name: ['Ensure this field has no more than 20 characters.'] });
      caller.first_name = str('first_name');
      caller.last_name = str('last_name');
      return sendJson(response, 200, { first_name: caller.first_name, last_name: caller.last_name });
    }
    if (method === 'PUT' && path === '/api/change-password/') {
      if (str('old_password') !== caller.password) return sendJson(response, 400, { old_password: ['Wrong password.'] });
      if (str('new_password').length < 8) return sendJson(response, 400, { new_password: ['This password is too short. It must contain at least 8 characters.'] });
      caller.password = str('new_password');
      this.revokeTokensOf(caller.id);
      return sendJson(response, 200, { message: 'Password updated.' });
    }

    const orgMatch = /^\/api\/organisation\/([\w-]+)\/$/.exec(path);
    if (orgMatch) {
      if (orgMatch[1] !== this.organisation.id) return sendJson(response, 404, { detail: 'Not found.' });
      if (method === 'GET') return sendJson(response, 200, { ...this.organisation, userprofile_set: this.users.map((u) => u.id) });
      if (method === 'PUT') {
        if (!caller.permissions.includes('account.change_organisation')) return sendJson(response, 403, { detail: 'You do not have permission to perform this action.' });
        const name = str('name');
        if (name === 'Taken Org') return sendJson(response, 400, { name: ['An organisation with that name already exists.'] });
        if (name === 'Clash Org') return sendJson(response, 400, { non_field_errors: ['The organisation was changed by someone else. Reload and try again.'] });
        if (name === 'Locked Org') return sendJson(response, 403, { detail: 'This organisation is locked.' });
        this.organisation = { ...this.organisation, name, email: str('email'), description: str('description') };
        return sendJson(response, 200, { ...this.organisation, userprofile_set: this.users.map((u) => u.id) });
      }
    }

    if (path === '/api/user-api-keys/') {
      if (method === 'GET') return sendJson(response, 200, caller.apiKeys ?? { api_token: null, api_secret: null });
      if (method === 'POST') {
        if (str('password') !== caller.password) return sendJson(response, 400, { password: ['Wrong password.'] });
        caller.apiKeys = { api_token: `tok_${caller.username}_${++this.counter}`, api_secret: `sec_${this.counter}_s3cr3t` };
        return sendJson(response, 200, caller.apiKeys);
      }
    }

    if (path === '/api/account/') {
      if (method === 'GET') {
        const results = this.users.map((u) => this.account(u));
        return sendJson(response, 200, { count: results.length, next: null, previous: null, results });
      }
      if (method === 'POST') {
        if (!caller.permissions.includes('account.add_userprofile')) return sendJson(response, 403, { detail: 'You do not have permission to perform this action.' });
        if (this.users.some((u) => u.username === str('username'))) return sendJson(response, 400, { username: ['A user with that username already exists.'] });
        if (str('password') !== str('password_confirm')) return sendJson(response, 400, { password_confirm: ["Passwords don't match."] });
        const user: FakeUser = {
          id: uuid(++this.counter + 100),
          username: str('username'),
          password: str('password'),
          first_name: str('first_name'),
          last_name: str('last_name'),
          email: str('email'),
          client_type: body.client_type === 'STANDARD' ? 'STANDARD' : 'BASIC',
          groups: Array.isArray(body.groups) ? (body.groups as number[]) : [],
          permissions: [],
          active: true,
        };
        this.users.push(user);
        return sendJson(response, 201, this.account(user));
      }
    }
    const accountMatch = /^\/api\/account\/([\w-]+)\/(set_password\/)?$/.exec(path);
    if (accountMatch) {
      const target = this.users.find((u) => u.id === accountMatch[1]);
      if (!target) return sendJson(response, 404, { detail: 'Not found.' });
      if (accountMatch[2]) {
        if (method !== 'POST') return false;
        if (str('new_password') !== str('new_password_confirm')) return sendJson(response, 400, { new_password_confirm: ["Passwords don't match."] });
        target.password = str('new_password');
        return sendJson(response, 200, {});
      }
      if (method === 'GET') return sendJson(response, 200, this.account(target));
      if (method === 'DELETE') {
        if (!caller.permissions.includes('account.delete_userprofile')) return sendJson(response, 403, { detail: 'You do not have permission to perform this action.' });
        this.users = this.users.filter((u) => u.id !== target.id);
        response.writeHead(204).end();
        return true;
      }
      if (!caller.permissions.includes('account.change_userprofile')) return sendJson(response, 403, { detail: 'You do not have permission to perform this action.' });
      if (method === 'PATCH') {
        if (target.id === caller.id) return sendJson(response, 400, { change_group: ['You cannot change your own group membership.'] });
        if (target.username === 'dan' && Array.isArray(body.groups) && !(body.groups as number[]).includes(2)) {
          return sendJson(response, 400, { change_group: ['Dan must stay a Data Admin while he owns records.'] });
        }
        target.groups = body.groups as number[];
        return sendJson(response, 200, this.account(target));
      }
      if (method === 'PUT') {
        if (!str('email').includes('@')) return sendJson(response, 400, { email: ['Enter a valid email address.'] });
        if (str('email') === 'taken@example.org') return sendJson(response, 400, { email: ['A user with that email already exists.'] });
        target.first_name = str('first_name');
        target.last_name = str('last_name');
        target.email = str('email');
        return sendJson(response, 200, this.account(target));
      }
    }
    return false;
  };
}

export { PASSWORD_RESET_TOKEN };
