import { statSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { ensureServerBuild, type EmbeddedProduct, isChromiumInstalled, launchChromium, startEmbeddedProduct } from '@dc/testing';
import { activateAndLogin, register } from './flows';

const PASSWORD = 'correct horse battery';
const HEADERS_TIMEOUT_MS = 1500;
const BODY_IDLE_TIMEOUT_MS = 1500;
const MAX_CONNECTIONS = 6;

/** Resolves once the server has closed the socket (or fails after `withinMs`, far below Node's own 60 s and 300 s). */
function closedByServer(socket: Socket, withinMs = 20_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server kept the connection open for ${withinMs} ms`)), withinMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.on('error', () => undefined);
    // Read what the server sends (a 408 when Node's header check closes it first): a paused socket
    // holding unread bytes never sees the end, so it would never close.
    socket.resume();
  });
}

function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** The first bytes the server sends on a socket (or '' when it closes without a word). */
function firstAnswer(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.once('close', () => resolve(received));
  });
}

/** The next whole answer (headers and a Content-Length body) on a kept-alive socket. */
function nextAnswer(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = '';
    const onData = (chunk: Buffer) => {
      received += chunk.toString();
      const end = received.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)\r\n/i.exec(received);
      if (end < 0 || !length || Buffer.byteLength(received.slice(end + 4)) < Number(length[1])) return;
      socket.off('data', onData);
      resolve(received);
    };
    socket.on('data', onData);
    socket.once('close', () => reject(new Error(`the server closed the connection; it had sent: ${JSON.stringify(received.slice(0, 200))}`)));
  });
}

/**
 * The embedded product as root starts it in a private DATA_DIR (mkdtemp, mode 0700), with its
 * response headers, slow-client limits and connection cap, logout and the web app under its CSP.
 * TRUST_PROXY names a proxy that is not this test, so the loopback client counts as any client.
 */
describe('hardening of the embedded product', () => {
  jest.setTimeout(120_000);
  let product: EmbeddedProduct | undefined;
  let dataDir: string;
  let port: number;
  const base = () => product!.base;

  beforeAll(async () => {
    ensureServerBuild();
    product = await startEmbeddedProduct('hardening', {
      TRUST_PROXY: '192.0.2.1',
      HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      BODY_IDLE_TIMEOUT_MS: String(BODY_IDLE_TIMEOUT_MS),
      MAX_CONNECTIONS_PER_ADDRESS: String(MAX_CONNECTIONS),
    });
    ({ dataDir, port } = product);
  }, 240_000);

  afterAll(async () => {
    await product?.stop();
  });

  it('starts in a DATA_DIR made by mktemp (0700) and opens it only for the postgres group to pass through', () => {
    const mode = statSync(dataDir).mode & 0o777;
    if (process.getuid?.() === 0) expect(mode).toBe(0o710);
    else expect(mode).toBe(0o700);
  });

  it('sends the security headers on the web app, the API and errors, and no-store on API answers', async () => {
    for (const [pathname, init] of [
      ['/', {}],
      ['/api/recordsannon/', {}],
      ['/api/no-such-route/', {}],
      ['/api-token-auth/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"username":"x","password":"y"}' }],
    ] as const) {
      const response = await fetch(`${base()}${pathname}`, init);
      const headers = Object.fromEntries(response.headers);
      expect({ pathname, csp: headers['content-security-policy'] }).toEqual({ pathname, csp: expect.stringContaining("frame-ancestors 'none'") });
      expect(headers['content-security-policy']).toContain("script-src 'self'");
      expect(headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'referrer-policy': 'strict-origin-when-cross-origin' });
      if (pathname.startsWith('/api')) expect(headers['cache-control']).toBe('no-store');
    }
  });

  it('keeps CORS closed: no origin is allowed to read answers', async () => {
    const preflight = await fetch(`${base()}/api/records/`, {
      method: 'OPTIONS',
      headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const read = await fetch(`${base()}/api/recordsannon/`, { headers: { origin: 'https://elsewhere.example' } });
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('ends a connection whose headers do not arrive in time', async () => {
    const socket = await openSocket(port);
    socket.write('GET /api/recordsannon/ HTTP/1.1\r\nHost: x\r\n');
    await closedByServer(socket);
  });

  it('ends a connection that trickles a header line every 0.5 s (Node alone held it up to 30 s past the limit)', async () => {
    const socket = await openSocket(port);
    // The server closes it about HEADERS_TIMEOUT_MS in; the wait is wider because a loaded machine
    // (CI runs browsers beside this) can starve the server's event loop for seconds. That the check
    // runs often enough is asserted on a bare server in libs/platform's http-security.spec.ts.
    const closed = closedByServer(socket, 10 * HEADERS_TIMEOUT_MS);
    const answer = firstAnswer(socket);
    socket.write('GET /api/recordsannon/ HTTP/1.1\r\nHost: x\r\n');
    let line = 0;
    const trickle = setInterval(() => socket.write(`X-Trickle-${line++}: still coming\r\n`), 500);
    try {
      await closed;
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
    expect(await answer).toMatch(/^$|^HTTP\/1\.1 408 /);
  });

  it('ends a connection whose body stalls, and does not cut a slow but steady one', async () => {
    const stalled = await openSocket(port);
    stalled.write('POST /api-token-auth/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"user');
    await closedByServer(stalled);

    const body = JSON.stringify({ username: 'steady', password: 'wrong password' });
    // Longer in all than the idle limit, never idle for as long. A loaded machine can hold this
    // process back past the limit between two pieces; then the client was idle, the server was right
    // to end it, and the steady case is tried again (the gap is measured, not assumed).
    const sendSteadily = async (): Promise<{ answer: string; longestGapMs: number }> => {
      const steady = await openSocket(port);
      const answered = firstAnswer(steady);
      steady.write(
        `POST /api-token-auth/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
      );
      let last = Date.now();
      let longestGapMs = 0;
      for (const piece of body.match(/.{1,4}/g)!) {
        await new Promise((r) => setTimeout(r, BODY_IDLE_TIMEOUT_MS / 5));
        longestGapMs = Math.max(longestGapMs, Date.now() - last);
        last = Date.now();
        steady.write(piece);
      }
      return { answer: await answered, longestGapMs };
    };
    let attempt = await sendSteadily();
    for (let retries = 0; retries < 3 && attempt.longestGapMs >= BODY_IDLE_TIMEOUT_MS * 0.8; retries++) attempt = await sendSteadily();
    const answer = attempt.answer;
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
  });

  it('keeps an idle kept-alive connection open for the announced 65 s, so a client reusing it after a pause is answered', async () => {
    const socket = await openSocket(port);
    try {
      const request = 'GET /api/recordsannon/ HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n';
      let answer = nextAnswer(socket);
      socket.write(request);
      const first = await answer;
      expect(first).toMatch(/^HTTP\/1\.1 200 /);
      expect(first).toMatch(/\r\nKeep-Alive: timeout=65\r\n/i);
      // Longer than Node's default keep-alive (5 s) and than this product's header limit here (1.5 s).
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      answer = nextAnswer(socket);
      socket.write(request);
      expect(await answer).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      socket.destroy();
    }
  });

  it(`caps open connections per address at ${MAX_CONNECTIONS}: the next is answered 503 with Retry-After, and served once one closes`, async () => {
    const held = await Promise.all(Array.from({ length: MAX_CONNECTIONS }, () => openSocket(port)));
    try {
      const extra = await openSocket(port);
      const answer = await firstAnswer(extra);
      expect(answer).toMatch(/^HTTP\/1\.1 503 /);
      expect(answer).toMatch(/\r\nRetry-After: \d+\r\n/i);
      expect(answer).toContain('{"detail":"Too many connections from your address. Please try again."}');
    } finally {
      for (const socket of held) socket.destroy();
    }
    await new Promise((r) => setTimeout(r, 200));
    expect((await fetch(`${base()}/api/recordsannon/`)).status).toBe(200);
  });

  it('ends the token on the server at logout: every module refuses it afterwards', async () => {
    expect((await register(base(), 'leaver', PASSWORD)).status).toBe(201);
    const token = await activateAndLogin(base(), path.join(dataDir, 'mail'), 'leaver', PASSWORD);
    const call = (pathname: string, method = 'GET') => fetch(`${base()}${pathname}`, { method, headers: { authorization: `JWT ${token}` } });
    expect((await call('/api/records/')).status).toBe(200);
    expect((await call('/api/logout/', 'POST')).status).toBe(204);
    for (const pathname of ['/api/records/', '/api/account/user-account/', '/api/requests/sent_requests/', '/api/policies/']) {
      expect({ pathname, status: (await call(pathname)).status }).toEqual({ pathname, status: 401 });
    }
  });

  const browserIt = isChromiumInstalled() ? it : it.skip;
  browserIt('renders and works in Chromium under the CSP, with no violation reported', async () => {
    expect((await register(base(), 'viewer', PASSWORD)).status).toBe(201);
    await activateAndLogin(base(), path.join(dataDir, 'mail'), 'viewer', PASSWORD);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { cspViolations: string[] }).cspViolations = seen;
        document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
      });
      const problems: string[] = [];
      page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(`${base()}/#/login`);
      await page.getByLabel(/^Username\*?$/).fill('viewer');
      await page.getByLabel(/^Password\*?$/).fill(PASSWORD);
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Workspace', exact: true }).waitFor();
      await page
        .getByRole('link', { name: /Add data/i })
        .first()
        .click()
        .catch(() => undefined);
      await page.waitForTimeout(500);
      const violations = await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
      expect(violations).toEqual([]);
      expect(problems.filter((text) => /Content Security Policy|Refused to/i.test(text))).toEqual([]);
      // The start guide (a static page of its own) is under the same policy.
      await page.goto(`${base()}/start-guide.html`);
      expect(problems.filter((text) => /Content Security Policy|Refused to/i.test(text))).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
