// A helper of the e2e suites, which (unlike the web app) may use the server-side libraries.
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseRawMail, type ParsedMail } from '@dc/mailer';
import { ensureServerBuild, eventually, freePort, startNode, waitForHttp } from '@dc/testing';
import { ensureWebBuild } from './web-server';

/**
 * The real product in embedded mode for the end-to-end suites: one gateway process with an
 * embedded PostgreSQL under a temporary DATA_DIR, writing its mail as .eml files to DATA_DIR/mail.
 */
export interface RealProduct {
  /** e.g. http://127.0.0.1:41234, also the product's PUBLIC_URL. */
  base: string;
  dataDir: string;
  /** Stops the process and deletes DATA_DIR once the embedded PostgreSQL has shut down. */
  stop(): Promise<void>;
}

/** Builds what is missing, then starts the product on free ports and waits until it is ready. `env`: further settings. */
export async function startRealProduct(name: string, env: Record<string, string> = {}): Promise<RealProduct> {
  ensureServerBuild();
  ensureWebBuild();
  const dataDir = mkdtempSync(path.join(tmpdir(), `dc-${name}-`));
  // mkdtemp makes it private to root; the embedded PostgreSQL (user postgres when run by root) must traverse it.
  chmodSync(dataDir, 0o755);
  const port = await freePort();
  const pgPort = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const app = startNode('embedded', 'dist/apps/gateway/src/main.js', {
    DATA_DIR: dataDir,
    PORT: String(port),
    EMBEDDED_PG_PORT: String(pgPort),
    PUBLIC_URL: base,
    LOG_LEVEL: 'warn',
    ...env,
  });

  async function stop(): Promise<void> {
    await app.stop();
    // The embedded PostgreSQL finishes its shutdown after the app has exited; removing its files
    // under it would leave half a directory behind. It deletes postmaster.pid when it is done.
    const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
    await eventually(async () => {
      if (existsSync(pidFile)) throw new Error(`the embedded PostgreSQL has not shut down: ${pidFile} is still there`);
    }, 30_000);
    rmSync(dataDir, { recursive: true, force: true });
  }

  try {
    await waitForHttp(`${base}/health/ready`, { process: app, timeoutMs: 120_000 });
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, dataDir, stop };
}

/** The names of the mail files written so far, to leave out of `newestMail`. */
export function mailFiles(product: RealProduct): Set<string> {
  const dir = path.join(product.dataDir, 'mail');
  return new Set(existsSync(dir) ? readdirSync(dir) : []);
}

/** The newest mail to `to` whose subject matches (not among `after`), once the mailer has written it. */
export function newestMail(product: RealProduct, to: string, subject: RegExp, after: Set<string> = new Set()): Promise<ParsedMail> {
  return eventually(async () => {
    const dir = path.join(product.dataDir, 'mail');
    const files = existsSync(dir)
      ? readdirSync(dir)
          .filter((name) => name.endsWith('.eml') && !after.has(name))
          .sort()
      : [];
    const mails = files
      .map((name) => parseRawMail(readFileSync(path.join(dir, name), 'utf8')))
      .filter((mail) => mail.to.includes(to) && subject.test(mail.subject));
    const mail = mails.at(-1);
    if (!mail) throw new Error(`no mail to ${to} matching ${subject} in ${dir}`);
    return mail;
  });
}

/** The first link in a mail's text. */
export function linkIn(mail: ParsedMail): string {
  const link = /https?:\/\/\S+/.exec(mail.text ?? '')?.[0];
  if (!link) throw new Error(`no link in mail: ${mail.text}`);
  return link;
}

export interface NewUser {
  username: string;
  email: string;
  password: string;
  first_name?: string;
  last_name?: string;
  description?: string;
}

/** Registers through the API and follows the emailed activation link. */
export async function signUpAndActivate(product: RealProduct, user: NewUser): Promise<void> {
  const { username, email, password } = user;
  const registered = await fetch(`${product.base}/api/register/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username,
      email,
      first_name: user.first_name ?? username,
      last_name: user.last_name ?? 'Tester',
      description: user.description ?? 'Testing the web app',
      password,
      password_confirm: password,
    }),
  });
  if (registered.status !== 201) throw new Error(`register ${username}: ${registered.status} ${await registered.text()}`);
  const link = linkIn(await newestMail(product, email, /activate/i));
  const activated = await fetch(link, { redirect: 'manual' });
  // The link redirects to the login page with activated=1, or activated=0 when it did not work.
  if (!activated.headers.get('location')?.endsWith('activated=1'))
    throw new Error(`activate ${username}: ${activated.status} ${activated.headers.get('location')}`);
}

/** Logs in at the token endpoint; answers the JWT. */
export async function apiLogin(product: RealProduct, username: string, password: string): Promise<string> {
  const login = await fetch(`${product.base}/api-token-auth/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (login.status !== 200) throw new Error(`login ${username}: ${login.status}`);
  return ((await login.json()) as { token: string }).token;
}

/** An API call as a script would make it: JSON in, the raw Response out. */
export function apiCall(product: RealProduct, token: string | null, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${product.base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `JWT ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

export interface SignedIn {
  id: string;
  username: string;
  email: string;
  password: string;
  organisation: string;
  token: string;
}

/** A new founder (their own organisation, all three groups), signed up, activated and logged in. */
export async function founder(
  product: RealProduct,
  username: string,
  password: string,
  names: { first_name?: string; last_name?: string } = {},
): Promise<SignedIn> {
  const email = `${username}@example.org`;
  await signUpAndActivate(product, { username, email, password, ...names });
  const token = await apiLogin(product, username, password);
  const me = (await (await apiCall(product, token, 'GET', '/api/account/user-account/')).json()) as { id: string; organisation: string };
  return { id: me.id, username, email, password, organisation: me.organisation, token };
}

/** A sub-account of the admin's organisation (POST /api/account/), logged in. */
export async function subAccount(
  product: RealProduct,
  admin: SignedIn,
  username: string,
  fields: { groups?: number[]; client_type?: 'BASIC' | 'STANDARD'; first_name?: string; last_name?: string } = {},
): Promise<SignedIn> {
  const email = `${username}@example.org`;
  const created = await apiCall(product, admin.token, 'POST', '/api/account/', {
    username,
    email,
    first_name: username,
    last_name: 'Member',
    password: admin.password,
    ...fields,
  });
  if (created.status !== 201) throw new Error(`create ${username}: ${created.status} ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  return { id, username, email, password: admin.password, organisation: admin.organisation, token: await apiLogin(product, username, admin.password) };
}
