import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseRawMail } from '@dc/mailer';

/** Steps the end-to-end suites share: what a newcomer does through the API. */
export async function register(base: string, username: string, password: string, correlationId?: string): Promise<Response> {
  return fetch(`${base}/api/register/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(correlationId ? { 'x-correlation-id': correlationId } : {}) },
    body: JSON.stringify({
      username,
      email: `${username}@example.org`,
      first_name: 'Ada',
      last_name: 'Lovelace',
      description: 'Analytical engines',
      password,
      password_confirm: password,
    }),
  });
}

/** Follows the activation link mailed (as .eml) to the user, then logs in; returns the JWT. */
export async function activateAndLogin(base: string, mailDir: string, username: string, password: string): Promise<string> {
  const mails = readdirSync(mailDir)
    .filter((f) => f.endsWith('.eml'))
    .map((f) => parseRawMail(readFileSync(path.join(mailDir, f), 'utf8')));
  const mail = mails.find((m) => m.to?.includes(`${username}@example.org`) && /activate/i.test(m.text ?? ''));
  if (!mail) throw new Error(`no activation mail for ${username} in ${mailDir}`);
  const link = /(https?:\/\/\S+\/api\/register\/activate\/\?token=[\w-]+)/.exec(mail.text ?? '')?.[1];
  if (!link) throw new Error('no activation link in the mail');
  const activation = await fetch(link.replace(/^https?:\/\/[^/]+/, base), { redirect: 'manual' });
  if (!activation.headers.get('location')?.endsWith('#/login?activated=1')) throw new Error(`activation failed: ${activation.headers.get('location')}`);
  const login = await fetch(`${base}/api-token-auth/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${await login.text()}`);
  return (await login.json()).token;
}

/** Indexes a metadata-only record and makes it visible to everyone. */
export async function createPublicRecord(base: string, token: string, name: string): Promise<{ id: string }> {
  const auth = { authorization: `JWT ${token}`, 'content-type': 'application/json' };
  const created = await fetch(`${base}/api/records/`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ name, description: 'Daily rainfall totals', access: 'OP' }),
  });
  if (created.status !== 201) throw new Error(`record not created: ${created.status} ${await created.text()}`);
  const record = await created.json();
  const [visibility] = (await (await fetch(`${base}/api/visibilities/?associated_record=${record.id}`, { headers: auth })).json()).results;
  const updated = await fetch(`${base}/api/visibilities/${visibility.id}/`, {
    method: 'PUT',
    headers: auth,
    body: JSON.stringify({ visibility_selection: 'EV', associated_record: record.id }),
  });
  if (updated.status !== 200) throw new Error(`visibility not saved: ${updated.status} ${await updated.text()}`);
  return record;
}

/** A JSON call through the gateway as `auth` (an authorization header, or none); the body is null when it is not JSON. */
export async function callApi(base: string, auth: Record<string, string>, method: string, url: string, body?: object) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { ...auth, 'content-type': 'application/json' },
    body: body && JSON.stringify(body),
  });
  return { status: response.status, body: await response.json().catch(() => null) };
}
