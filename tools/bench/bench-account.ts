// A real account for the benchmarks that drive the product through the gateway: registered,
// activated from the mail the product wrote under DATA_DIR/mail, logged in.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseRawMail } from '@dc/mailer';

async function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

async function activationLink(mailDir: string, username: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const mails = existsSync(mailDir)
      ? readdirSync(mailDir)
          .filter((f) => f.endsWith('.eml'))
          .map((f) => parseRawMail(readFileSync(path.join(mailDir, f), 'utf8')))
      : [];
    const mail = mails.find((m) => m.to?.includes(`${username}@example.org`) && /activate/i.test(m.text ?? ''));
    const link = mail && /(https?:\/\/\S+\/api\/register\/activate\/\?token=[\w-]+)/.exec(mail.text ?? '')?.[1];
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no activation mail for ${username} in ${mailDir}`);
}

/** Logs in, or registers, activates from the mailed link and logs in; answers the JWT. */
export async function signIn(base: string, mailDir: string, username: string, password: string): Promise<string> {
  const login = () => post(`${base}/api-token-auth/`, { username, password });
  let response = await login();
  if (response.status !== 200) {
    const registered = await post(`${base}/api/register/`, {
      username,
      email: `${username}@example.org`,
      first_name: 'Bench',
      last_name: 'User',
      description: 'Benchmark account',
      password,
      password_confirm: password,
    });
    if (registered.status !== 201) throw new Error(`registration failed: ${registered.status} ${await registered.text()}`);
    const link = await activationLink(mailDir, username);
    const activated = await fetch(link.replace(/^https?:\/\/[^/]+/, base), { redirect: 'manual' });
    if (!activated.headers.get('location')?.endsWith('#/login?activated=1'))
      throw new Error(`activation failed: ${activated.status} ${activated.headers.get('location')}`);
    response = await login();
  }
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}
