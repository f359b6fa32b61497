import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface OidcTestClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

/** Claims of a person at the test provider, keyed by their subject (also the login typed in its form). */
export type OidcTestAccounts = Record<
  string,
  { email?: string; email_verified?: boolean; given_name?: string; family_name?: string; preferred_username?: string }
>;

/**
 * A real OpenID Provider (oidc-provider 9) on a loopback port, in a child process: dev login form
 * (any password), consent given, PKCE required. clockOffsetSeconds shifts the provider's clock (a
 * negative offset beyond the ID token's lifetime and the product's clock tolerance makes every ID
 * token arrive expired).
 */
export class OidcTestProvider {
  private constructor(
    private readonly child: ChildProcess,
    readonly issuer: string,
    private readonly accountsFile: string,
    private readonly dir: string,
  ) {}

  static async start(options: {
    clients: OidcTestClient[];
    accounts: OidcTestAccounts;
    clockOffsetSeconds?: number;
    idTokenTtlSeconds?: number;
    port?: number;
  }): Promise<OidcTestProvider> {
    const dir = mkdtempSync(path.join(tmpdir(), 'oidc-provider-'));
    const accountsFile = path.join(dir, 'accounts.json');
    writeFileSync(accountsFile, JSON.stringify(options.accounts));
    const script = path.join(__dirname, 'oidc-provider-process.mjs');
    const args = JSON.stringify({
      clients: options.clients,
      accountsFile,
      clockOffsetSeconds: options.clockOffsetSeconds,
      idTokenTtlSeconds: options.idTokenTtlSeconds,
      port: options.port,
    });
    const child = spawn(process.execPath, [script, args], { stdio: ['ignore', 'pipe', 'pipe'], cwd: path.resolve(__dirname, '../../..') });
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /listening (\d+)/.exec(out);
        if (match) resolve(Number(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`oidc-provider exited (${code}): ${errors}`)));
    });
    return new OidcTestProvider(child, `http://127.0.0.1:${port}`, accountsFile, dir);
  }

  get port(): number {
    return Number(new URL(this.issuer).port);
  }

  /** Replaces the people the provider knows (read at each sign-in). */
  setAccounts(accounts: OidcTestAccounts): void {
    writeFileSync(this.accountsFile, JSON.stringify(accounts));
  }

  /**
   * Signs `login` in at the provider as a browser would, from the authorization URL the product
   * redirected to, and returns the URL the provider redirects back to (the product's callback with
   * code and state). Cookies are kept per call, like a fresh browser.
   */
  async signIn(authorizationUrl: string, login: string): Promise<string> {
    const cookies = new Map<string, string>();
    const keep = (response: Response) => {
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const [name, ...value] = pair.split('=');
        cookies.set(name.trim(), value.join('='));
      }
    };
    const cookieHeader = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let url = authorizationUrl;
    let body: URLSearchParams | undefined;
    for (let hops = 0; hops < 10; hops++) {
      const response = await fetch(url, { method: body ? 'POST' : 'GET', body, redirect: 'manual', headers: { cookie: cookieHeader() } });
      keep(response);
      body = undefined;
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        const next = new URL(location, url);
        if (next.origin !== this.issuer) return next.href;
        url = next.href;
        continue;
      }
      const html = await response.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      if (response.status !== 200 || !action || !html.includes('name="login"'))
        throw new Error(`Unexpected page at the provider (${response.status}): ${html.slice(0, 500)}`);
      url = new URL(action.replace(/&amp;/g, '&'), url).href;
      body = new URLSearchParams({ prompt: 'login', login, password: 'any' });
    }
    throw new Error('Too many redirects at the provider');
  }

  /** Stops the provider (it is unreachable afterwards). */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGKILL');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
