import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ParsedMail, parseRawMail } from '@dc/mailer';
import { ServiceHarness } from '@dc/testing';
import { IdentityModule } from '../app/identity.module';

/** Test-only: the identity service as the real process builds it, on a test database. */
export const PUBLIC_URL = 'https://catalogue.example.test';
export const PASSWORD = 'correct horse battery';

export interface SignUp {
  /** Optional: the organisation is named after the person without it. */
  organisation_name?: string;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  description: string;
  password: string;
  password_confirm: string;
}

export class IdentityTestApp extends ServiceHarness {
  private addressCounter = 0;

  /** createApp (platform, infrastructure adapters, IdentityModule) with file mail under a temporary DATA_DIR; logs: collect the log lines here. */
  static async start(databaseUrl: string, options: { logs?: string[]; env?: Record<string, string> } = {}): Promise<IdentityTestApp> {
    const env = { PUBLIC_URL, JWT_SECRET: randomBytes(32).toString('hex'), ENCRYPTION_KEY: randomBytes(32).toString('base64'), ...options.env };
    return new IdentityTestApp(await ServiceHarness.boot({ service: 'identity', modules: [IdentityModule], databaseUrl, env, logs: options.logs }));
  }

  /** A distinct client address per call site, so per-address login limits do not pile up across tests. */
  nextAddress(): string {
    this.addressCounter += 1;
    return `10.0.${Math.floor(this.addressCounter / 250)}.${(this.addressCounter % 250) + 1}`;
  }

  /** The events recorded in identity's outbox about one aggregate, oldest first. */
  async events(key: string): Promise<Array<{ type: string; payload: Record<string, unknown> }>> {
    return this.sql('SELECT type, payload FROM identity.outbox_events WHERE key = $1 ORDER BY seq', [key]);
  }

  /** Every mail the FileMailer wrote, oldest first. */
  mails(): ParsedMail[] {
    const dir = path.join(this.dataDir, 'mail');
    let names: string[];
    try {
      names = readdirSync(dir)
        .filter((name) => name.endsWith('.eml'))
        .sort();
    } catch {
      return [];
    }
    return names.map((name) => parseRawMail(readFileSync(path.join(dir, name), 'utf8')));
  }

  mailsTo(email: string): ParsedMail[] {
    return this.mails().filter((mail) => mail.to.includes(email));
  }

  /** The first link in the newest mail to the address that starts with the given prefix. */
  linkIn(email: string, prefix: string): string {
    const mails = this.mailsTo(email);
    const text = mails[mails.length - 1]?.text ?? '';
    const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const link = new RegExp(`${escaped}\\S+`).exec(text)?.[0];
    if (!link) throw new Error(`No link starting with ${prefix} in the mail to ${email}:\n${text}`);
    return link;
  }

  activationLink(email: string): string {
    return this.linkIn(email, `${PUBLIC_URL}/api/register/activate/`);
  }

  signUpPayload(username: string, overrides: Partial<SignUp> = {}): SignUp {
    return {
      username,
      email: `${username}@example.org`,
      first_name: 'Ada',
      last_name: 'Lovelace',
      description: 'Analytical engines',
      password: PASSWORD,
      password_confirm: PASSWORD,
      ...overrides,
    };
  }

  signUp(username: string, overrides: Partial<SignUp> = {}) {
    return this.http().post('/api/register/').send(this.signUpPayload(username, overrides));
  }

  /** Signs up and follows the activation link; the founder of a new organisation. */
  async founder(
    username: string,
    overrides: Partial<SignUp> = {},
  ): Promise<{ id: string; username: string; email: string; organisationId: string; token: string }> {
    const payload = this.signUpPayload(username, overrides);
    const response = await this.signUp(username, overrides);
    if (response.status !== 201) throw new Error(`sign-up failed: ${response.status} ${JSON.stringify(response.body)}`);
    const link = new URL(this.activationLink(payload.email));
    const activated = await this.http().get(`${link.pathname}${link.search}`);
    if (activated.status !== 302) throw new Error(`activation failed: ${activated.status}`);
    const token = await this.login(username, payload.password);
    const me = await this.http().get('/api/account/user-account/').set('Authorization', `JWT ${token}`);
    return { id: me.body.id, username, email: payload.email, organisationId: me.body.organisation, token };
  }

  /** A sub-account created by an Access Admin, logged in. */
  async member(
    adminToken: string,
    username: string,
    fields: { groups?: number[]; client_type?: string } = {},
  ): Promise<{ id: string; username: string; token: string }> {
    const created = await this.http()
      .post('/api/account/')
      .set('Authorization', `JWT ${adminToken}`)
      .send({ username, email: `${username}@example.org`, first_name: 'Sub', last_name: username, password: PASSWORD, ...fields });
    if (created.status !== 201) throw new Error(`account creation failed: ${created.status} ${JSON.stringify(created.body)}`);
    return { id: created.body.id, username, token: await this.login(username, PASSWORD) };
  }

  /**
   * An organisation with one caller per role (founder with all groups, Access Admin, Data Admin,
   * Data Viewer, a BASIC Data Viewer) and the founder of another organisation.
   */
  async roles(prefix: string): Promise<Roles> {
    const founder = await this.founder(`${prefix}-founder`);
    const member = (name: string, fields: { groups?: number[]; client_type?: string }) => this.member(founder.token, `${prefix}-${name}`, fields);
    return {
      founder,
      accessAdmin: await member('access-admin', { groups: [1], client_type: 'STANDARD' }),
      dataAdmin: await member('data-admin', { groups: [2], client_type: 'STANDARD' }),
      dataViewer: await member('data-viewer', { groups: [3], client_type: 'STANDARD' }),
      basic: await member('basic', { groups: [3] }),
      otherAdmin: await this.founder(`${prefix}-other`),
    };
  }

  async login(username: string, password: string = PASSWORD): Promise<string> {
    const response = await this.http().post('/api-token-auth/').set('X-Forwarded-For', this.nextAddress()).send({ username, password });
    if (response.status !== 200) throw new Error(`login failed: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.token as string;
  }
}

export interface Caller {
  id: string;
  username: string;
  token: string;
}

export interface Roles {
  founder: Caller & { organisationId: string; email: string };
  accessAdmin: Caller;
  dataAdmin: Caller;
  dataViewer: Caller;
  basic: Caller;
  otherAdmin: Caller & { organisationId: string; email: string };
}

export const auth = (token: string) => ({ Authorization: `JWT ${token}` });
