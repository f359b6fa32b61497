/**
 * The search benchmarks' account and paging, as a client has them: a real account (registered,
 * activated from its mail, logged in) and deep pages reached by following `next` links.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseRawMail } from '@dc/mailer';

const PASSWORD = 'bench search password 1';

async function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** A real account: logs in, or registers, activates from the mailed link and logs in. */
export async function signIn(base: string, mailDir: string, username: string): Promise<string> {
  const login = () => post(`${base}/api-token-auth/`, { username, password: PASSWORD });
  let response = await login();
  if (response.status !== 200) {
    const registered = await post(`${base}/api/register/`, {
      username, email: `${username}@example.org`, first_name: 'Bench', last_name: 'Viewer', description: 'Search benchmark', password: PASSWORD, password_confirm: PASSWORD,
    });
    if (registered.status !== 201) throw new Error(`registration failed: ${registered.status} ${await registered.text()}`);
    const link = await activationLink(mailDir, username);
    const activated = await fetch(link.replace(/^https?:\/\/[^/]+/, base), { redirect: 'manual' });
    if (!activated.headers.get('location')?.endsWith('#/login?activated=1')) throw new Error(`activation failed: ${activated.status} ${activated.headers.get('location')}`);
    response = await login();
  }
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

async function activationLink(mailDir: string, username: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const mails = existsSync(mailDir) ? readdirSync(mailDir).filter((f) => f.endsWith('.eml')).map((f) => parseRawMail(readFileSync(path.join(mailDir, f), 'utf8'))) : [];
    const mail = mails.find((m) => m.to?.includes(`${username}@example.org`) && /activate/i.test(m.text ?? ''));
    const link = mail && /(https?:\/\/\S+\/api\/register\/activate\/\?token=[\w-]+)/.exec(mail.text ?? '')?.[1];
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no activation mail for ${username} in ${mailDir}`);
}

/** The URL of a deep page as a client reaches it: following `next` links from the first page. */
export async function followNext(base: string, start: string, token: string | null, times: number): Promise<string> {
  let url = `${base}${start}`;
  for (let i = 0; i < times; i++) {
    const response = await fetch(url, { headers: token ? { authorization: `JWT ${token}` } : {} });
    const body = (await response.json()) as { next: string | null };
    if (!body.next) throw new Error(`${url}: no next page after ${i} links`);
    url = body.next.startsWith('http') ? body.next.replace(/^https?:\/\/[^/]+/, base) : `${base}${body.next}`;
  }
  return url;
}
