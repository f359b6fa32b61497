import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { describeInfra, expectAccessible, isChromiumInstalled, launchChromium, saveScreenshot } from '@dc/testing';
import { apiCall, apiLogin, founder, linkIn, mailFiles, newestMail, startRealProduct, subAccount, type RealProduct, type SignedIn } from './real-product';

const TOKEN_KEY = 'dc.token';
const PASSWORD = 'correct horse battery';

/** An API call the page made, and what the server answered. */
interface Call {
  method: string;
  path: string;
  body: unknown;
  status?: number;
}

// The identity screens (spec section 2: Login, Sign Up, Password Reset, Profile and its four tabs)
// against the real product in embedded mode: real accounts, real messages, real mail (.eml files).
// Two cases force an answer the product gives only when something else has gone wrong (a 500, a
// second login message); they start from the real server's own answer (page.route + route.fetch).
describeInfra('identity screens in chromium (real product)', isChromiumInstalled() || 'chromium is not installed (apt-get install chromium)', () => {
  jest.setTimeout(120_000);
  let product: RealProduct;
  let browser: Browser;
  let context: BrowserContext | undefined;
  let calls: Call[] = [];
  let people = 0;

  beforeAll(async () => {
    product = await startRealProduct('identity-screens');
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  }, 60_000);

  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  /** A founder of a new organisation with a name of its own, so tests share no state. */
  const newFounder = (prefix: string, names: { first_name?: string; last_name?: string } = {}) => founder(product, `${prefix}${++people}`, PASSWORD, names);

  /** Records the page's API calls and their statuses into `calls`. */
  function record(page: Page): void {
    const byRequest = new Map<Request, Call>();
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (!url.pathname.startsWith('/api')) return;
      let body: unknown;
      try {
        body = request.postDataJSON() ?? undefined;
      } catch {
        body = request.postData();
      }
      const call: Call = { method: request.method(), path: url.pathname, body };
      byRequest.set(request, call);
      calls.push(call);
    });
    page.on('response', (response) => {
      const call = byRequest.get(response.request());
      if (call) call.status = response.status();
    });
  }
  const callsTo = (method: string, path: string) => calls.filter((call) => call.method === method && call.path === path);

  /** A fresh browser profile at `#hash`, signed in with `as`'s token when given. */
  async function open(
    hash: string,
    options: { as?: SignedIn; width?: number; storageState?: Awaited<ReturnType<BrowserContext['storageState']>> } = {},
  ): Promise<Page> {
    context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: 900 }, storageState: options.storageState });
    await context.addInitScript(
      ({ key, token }) => {
        if (!token || sessionStorage.getItem('seeded')) return;
        sessionStorage.setItem('seeded', '1');
        localStorage.setItem(key, token);
      },
      { key: TOKEN_KEY, token: options.as?.token },
    );
    const page = await context.newPage();
    calls = [];
    record(page);
    await page.goto(`${product.base}/#${hash}`);
    return page;
  }

  const hashOf = (page: Page) => new URL(page.url()).hash;
  const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });
  /** An input by its label; a required field's label ends in the (aria-hidden) "*" indicator. */
  const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\*?$`));
  const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
  const alert = (page: Page) => page.getByRole('alert');
  /** The error message shown under a field (Chakra's Field.ErrorText, linked by aria-errormessage). */
  async function errorOf(page: Page, label: string): Promise<string | null> {
    const id = await field(page, label).getAttribute('aria-errormessage');
    return id ? page.locator(`[id="${id}"]`).textContent() : null;
  }
  const storedToken = (page: Page) => page.evaluate((key) => localStorage.getItem(key) ?? sessionStorage.getItem(key), TOKEN_KEY);
  const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });
  const main = (page: Page) => page.locator('#main-content');
  /** Ticks or clears a checkbox the way a keyboard user does (Chakra draws its box over the input). */
  async function toggle(box: ReturnType<Page['getByRole']>) {
    await box.focus();
    await box.press('Space');
  }
  async function logIn(page: Page, username: string, password: string, remember = false) {
    await field(page, 'Username').fill(username);
    await field(page, 'Password').fill(password);
    if (remember) await toggle(page.getByRole('checkbox', { name: 'Remember me' }));
    await button(page, 'Login').click();
  }
  const get = async <T>(token: string, path: string) => (await (await apiCall(product, token, 'GET', path)).json()) as T;

  describe('Login', () => {
    it('requires username and password and focuses the first missing one', async () => {
      const page = await open('/login');
      await button(page, 'Login').click();
      await page.getByText('Username is required.').waitFor();
      expect(await errorOf(page, 'Username')).toBe('Username is required.');
      expect(await errorOf(page, 'Password')).toBe('Password is required.');
      expect(await field(page, 'Username').evaluate((el) => el === document.activeElement)).toBe(true);
      expect(callsTo('POST', '/api-token-auth/')).toHaveLength(0);
      expect(await page.getByRole('checkbox', { name: 'Remember me' }).isVisible()).toBe(true);
      await saveScreenshot(page, 'identity-login-validation');
      await expectAccessible(page, 'identity-login-validation');
    });

    it('shows only the first non-field error of a failed login', async () => {
      const page = await open('/login');
      // The product sends one message; a second one is added to its real answer to see it left out.
      await page.route('**/api-token-auth/', async (route) => {
        const real = await route.fetch();
        const body = (await real.json()) as { non_field_errors: string[] };
        await route.fulfill({ response: real, json: { non_field_errors: [...body.non_field_errors, 'A second message the form does not show.'] } });
      });
      await logIn(page, 'nobody-here', 'wrong');
      await alert(page).getByText('Unable to log in with provided credentials.', { exact: true }).waitFor();
      expect(await page.getByText('A second message the form does not show.').count()).toBe(0);
      expect(callsTo('POST', '/api-token-auth/')[0]).toMatchObject({ body: { username: 'nobody-here', password: 'wrong' }, status: 400 });
      await saveScreenshot(page, 'identity-login-error');
      await expectAccessible(page, 'identity-login-error');
    });

    it('shows the detail of a throttled login: repeated wrong passwords make the next try wait (Retry-After), never a lock', async () => {
      const slowed = await newFounder('slowed');
      // Three tries are free, then each failure doubles the wait: after seven failures the next try waits 16 s.
      let failures = 0;
      while (failures < 7) {
        const answer = await fetch(`${product.base}/api-token-auth/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: slowed.username, password: `wrong ${failures}` }),
        });
        if (answer.status === 429) {
          const retryAfter = Number(answer.headers.get('retry-after'));
          expect(retryAfter).toBeGreaterThan(0);
          await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
          continue;
        }
        expect(answer.status).toBe(400);
        failures += 1;
      }
      const page = await open('/login');
      await logIn(page, slowed.username, PASSWORD);
      await alert(page).getByText('Too many failed login attempts. Please wait before trying again.', { exact: true }).waitFor();
      expect(callsTo('POST', '/api-token-auth/')[0].status).toBe(429);
      expect(hashOf(page)).toBe('#/login');
    });

    it('logs in and goes to the records; the session survives a browser restart only with Remember me', async () => {
      const user = await newFounder('remember');
      for (const remember of [false, true]) {
        let page = await open('/login');
        await logIn(page, user.username, PASSWORD, remember);
        await heading(page, 'Workspace').waitFor();
        expect(hashOf(page)).toBe('#/records');
        const stored = await page.evaluate((key) => ({ local: localStorage.getItem(key), session: sessionStorage.getItem(key) }), TOKEN_KEY);
        expect(stored).toEqual(remember ? { local: expect.any(String), session: null } : { local: null, session: expect.any(String) });

        // A browser restart: a new context gets what the browser keeps on disk (cookies, localStorage).
        const saved = await context!.storageState();
        await context!.close();
        page = await open('/profile', { storageState: saved });
        if (remember) await page.getByText(`Signed in as ${user.username}`).waitFor();
        else await page.getByText('Please log in to see your profile.').waitFor();
        expect(await storedToken(page)).toBe(remember ? stored.local : null);
        await context!.close();
        context = undefined;
      }
    });

    it('links to Sign Up and Password Reset, and Cancel goes Home', async () => {
      const page = await open('/login');
      await page.getByRole('link', { name: 'Sign Up' }).click();
      await heading(page, 'Sign Up').waitFor();
      await page.goBack();
      await page.getByRole('link', { name: 'Password Reset' }).click();
      await heading(page, 'Password Reset').waitFor();
      await page.goBack();
      await button(page, 'Cancel').click();
      await page.getByPlaceholder('Search for data').waitFor();
      expect(hashOf(page)).toBe('#/');
    });

    it('hides the search bar and the side menu on Login, Sign Up and both Password Reset forms', async () => {
      const page = await open('/');
      await page.getByPlaceholder('Search for data').waitFor();
      expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(1);
      for (const [hash, title, ready] of [
        ['/login', 'Login', 'Login'],
        ['/register', 'Sign Up', 'Sign Up'],
        ['/passreset', 'Password Reset', 'Reset Password'],
        ['/passreset?token=abc&email=ada%40example.org', 'Password Reset', 'Update Password'],
      ]) {
        await page.goto(`${product.base}/#${hash}`);
        await heading(page, title).waitFor();
        await button(page, ready).waitFor();
        expect({
          hash,
          search: await page.getByPlaceholder('Search for data').count(),
          menu: await page.getByRole('navigation', { name: 'Main' }).count(),
        }).toEqual({ hash, search: 0, menu: 0 });
        expect(await page.getByRole('button', { name: 'Toggle sidebar' }).count()).toBe(0);
      }
    });

    it('follows an emailed activation link once, and tells whether it worked', async () => {
      const before = mailFiles(product);
      const response = await apiCall(product, null, 'POST', '/api/register/', {
        username: 'linked',
        email: 'linked@example.org',
        first_name: 'Lin',
        last_name: 'Ked',
        description: 'Links',
        password: PASSWORD,
        password_confirm: PASSWORD,
      });
      expect(response.status).toBe(201);
      const link = linkIn(await newestMail(product, 'linked@example.org', /activate/i, before));
      const page = await open('/');
      await page.goto(link);
      await page.getByRole('status').getByText('Your account is activated. Please log in.').waitFor();
      expect(hashOf(page)).toBe('#/login?activated=1');
      await saveScreenshot(page, 'identity-login-activated');
      await expectAccessible(page, 'identity-login-activated');
      await page.goto(link);
      await alert(page).getByText('This activation link is invalid or has expired.').waitFor();
      await saveScreenshot(page, 'identity-login-activation-failed');
      await expectAccessible(page, 'identity-login-activation-failed');
    });

    it('ends the session when any call is refused with 401 (a password changed elsewhere), and says so at Login', async () => {
      const user = await newFounder('elsewhere');
      const page = await open('/profile', { as: user });
      await page.getByText(`Signed in as ${user.username}`).waitFor();
      // The password changes in another browser: every earlier token, this page's included, is revoked.
      const other = await apiLogin(product, user.username, PASSWORD);
      const changed = await apiCall(product, other, 'PUT', '/api/change-password/', {
        old_password: PASSWORD,
        new_password: 'changed elsewhere',
        new_password_confirm: 'changed elsewhere',
      });
      expect(changed.status).toBe(200);
      const before = calls.length;

      await tab(page, 'Accounts').click();
      await page.getByText('Your session has ended. Please log in again.').waitFor();
      expect(hashOf(page)).toBe('#/login?session=ended');
      expect(await storedToken(page)).toBeNull();
      // It was the accounts list that was refused, not the user-account query.
      expect(
        calls
          .slice(before)
          .filter((call) => call.status === 401)
          .map((call) => `${call.method} ${call.path}`),
      ).toContain('GET /api/account/');
      expect(calls.slice(before).filter((call) => call.path === '/api/account/user-account/')).toEqual([]);
      await saveScreenshot(page, 'identity-session-ended');
      await expectAccessible(page, 'identity-session-ended');
      await logIn(page, user.username, 'changed elsewhere');
      await heading(page, 'Workspace').waitFor();
    });
  });

  describe('Sign Up', () => {
    async function fillSignUp(page: Page, values: Record<string, string>) {
      for (const [label, value] of Object.entries(values)) await field(page, label).fill(value);
    }
    const valid = {
      Username: 'grace',
      Email: 'grace@example.org',
      'First name': 'Grace',
      'Last name': 'Hopper',
      Password: ' compilers rule ',
      'Confirm password': ' compilers rule ',
      Description: 'Navy research lab',
    };

    it('validates every field with the spec messages', async () => {
      const page = await open('/register');
      expect(await page.getByText('By signing up you agree to the terms of use and the privacy policy.').isVisible()).toBe(true);
      expect(await page.getByText('Say something about you or your organisation.').isVisible()).toBe(true);
      await button(page, 'Sign Up').click();
      await page.getByText('First Name is required').waitFor();
      expect(await errorOf(page, 'Username')).toBe('Username is required.');
      expect(await errorOf(page, 'Email')).toBe('Email is required.');
      expect(await errorOf(page, 'First name')).toBe('First Name is required');
      expect(await errorOf(page, 'Last name')).toBe('Last Name is required');
      expect(await errorOf(page, 'Password')).toBe('Password is required.');
      expect(await errorOf(page, 'Confirm password')).toBe('Please confirm the password.');
      expect(await errorOf(page, 'Description')).toBe('A description is required.');
      await saveScreenshot(page, 'identity-register-validation');
      await expectAccessible(page, 'identity-register-validation');

      await fillSignUp(page, { ...valid, Email: 'not-an-email', 'Confirm password': 'something else' });
      await button(page, 'Sign Up').click();
      await page.getByText('Enter a valid email address.').waitFor();
      expect(await errorOf(page, 'Confirm password')).toBe("Passwords don't match.");
      expect(await errorOf(page, 'First name')).toBeNull();
      expect(callsTo('POST', '/api/register/')).toHaveLength(0);
    });

    it('shows the server errors under their fields', async () => {
      const taken = await newFounder('taken');
      const page = await open('/register');
      await fillSignUp(page, { ...valid, Username: taken.username.toUpperCase(), Email: taken.email });
      await button(page, 'Sign Up').click();
      await page.getByText('A user with that username already exists.').waitFor();
      expect(await errorOf(page, 'Username')).toBe('A user with that username already exists.');
      // A taken email is not said: only its owner learns of the attempt, by mail.
      expect(await errorOf(page, 'Email')).toBeNull();
      expect(callsTo('POST', '/api/register/')[0].status).toBe(400);
      await saveScreenshot(page, 'identity-register-server-errors');
      await expectAccessible(page, 'identity-register-server-errors');
    });

    it('registers, tells the user to follow the emailed link, and mails it', async () => {
      const before = mailFiles(product);
      const page = await open('/register');
      await saveScreenshot(page, 'identity-register');
      await expectAccessible(page, 'identity-register');
      await fillSignUp(page, valid);
      await button(page, 'Sign Up').click();
      await page.getByText('A registration email was sent to').waitFor();
      expect(await page.getByRole('status').textContent()).toContain(
        'A registration email was sent to grace@example.org. Follow the link in it to activate your account',
      );
      expect(callsTo('POST', '/api/register/')[0]).toMatchObject({
        status: 201,
        body: {
          username: 'grace',
          email: 'grace@example.org',
          first_name: 'Grace',
          last_name: 'Hopper',
          password: ' compilers rule ',
          password_confirm: ' compilers rule ',
          description: 'Navy research lab',
        },
      });
      const mail = await newestMail(product, 'grace@example.org', /activate/i, before);
      expect(mail.text).toContain('Hello Grace,');
      await saveScreenshot(page, 'identity-register-done');
      await expectAccessible(page, 'identity-register-done');
    });
  });

  describe('Password Reset', () => {
    it('without a token: asks for the email and gives the same answer whether or not it has an account', async () => {
      const known = await newFounder('forgetful');
      const page = await open('/passreset');
      await button(page, 'Reset Password').click();
      await page.getByText('Email is required.').waitFor();

      // A server in trouble: its error page is not shown, the generic message is.
      await page.route(
        '**/api/password/confirm/',
        (route) => route.fulfill({ status: 500, contentType: 'text/html', body: '<html><body>Internal Server Error</body></html>' }),
        { times: 1 },
      );
      await field(page, 'Email').fill(known.email);
      await button(page, 'Reset Password').click();
      await alert(page).getByText('The request failed (HTTP 500).').waitFor();

      const answers: string[] = [];
      for (const email of [known.email, 'nobody@example.org']) {
        await field(page, 'Email').fill(email);
        const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/password/confirm/')), button(page, 'Reset Password').click()]);
        const { message } = (await response.json()) as { message: string };
        await page.getByRole('status').getByText(message, { exact: true }).waitFor();
        answers.push(message);
      }
      expect(answers).toEqual([
        'If an account exists for this email address, we have sent it a link to reset the password. The link expires in 1 hour.',
        'If an account exists for this email address, we have sent it a link to reset the password. The link expires in 1 hour.',
      ]);
      expect(callsTo('POST', '/api/password/confirm/').map((call) => call.body)).toEqual([
        { email: known.email },
        { email: known.email },
        { email: 'nobody@example.org' },
      ]);
      await saveScreenshot(page, 'identity-passreset-request');
      await expectAccessible(page, 'identity-passreset-request');
      await button(page, 'Cancel').click();
      await heading(page, 'Login').waitFor();
    });

    it('with the emailed token: sets the new password, showing the first non-field error on failure', async () => {
      const user = await newFounder('resetter');
      const before = mailFiles(product);
      expect((await apiCall(product, null, 'POST', '/api/password/confirm/', { email: user.email })).status).toBe(200);
      const link = linkIn(await newestMail(product, user.email, /password/i, before));

      const page = await open(`/passreset?token=wrong-token&email=${encodeURIComponent(user.email)}`);
      await button(page, 'Update Password').waitFor();
      expect(await main(page).getByRole('link', { name: 'Login' }).isVisible()).toBe(true);
      await button(page, 'Update Password').click();
      expect(await errorOf(page, 'New password')).toBe('New password is required.');
      await field(page, 'New password').fill('a brand new one');
      await field(page, 'Confirm new password').fill('a brand new one');
      await button(page, 'Update Password').click();
      await alert(page).getByText('This password reset link is invalid or has expired. Please ask for a new one.', { exact: true }).waitFor();
      await saveScreenshot(page, 'identity-passreset-invalid-token');
      await expectAccessible(page, 'identity-passreset-invalid-token');

      await page.goto(link);
      await field(page, 'New password').fill('a brand new one');
      await field(page, 'Confirm new password').fill('a brand new one');
      await saveScreenshot(page, 'identity-passreset-form');
      await expectAccessible(page, 'identity-passreset-form');
      await button(page, 'Update Password').click();
      await page.getByText('Your password has been reset. You can now log in with your new password.').waitFor();
      expect(callsTo('POST', '/api/password/check/').at(-1)).toMatchObject({
        status: 200,
        body: {
          email: user.email,
          token: new URL(link.replace('/#/', '/')).searchParams.get('token'),
          password: 'a brand new one',
          password_confirm: 'a brand new one',
        },
      });
      await saveScreenshot(page, 'identity-passreset-done');
      await expectAccessible(page, 'identity-passreset-done');
      await main(page).getByRole('link', { name: 'Login' }).click();
      await logIn(page, user.username, 'a brand new one');
      await heading(page, 'Workspace').waitFor();
    });
  });

  describe('Profile', () => {
    it('asks visitors without a session to log in', async () => {
      const page = await open('/profile');
      await page.getByText('Please log in to see your profile.').waitFor();
      await main(page).getByRole('link', { name: 'Login' }).click();
      await heading(page, 'Login').waitFor();
    });

    it('shows the account with a logout button that goes Home', async () => {
      const user = await newFounder('profile', { first_name: 'Ada', last_name: 'Lovelace' });
      const page = await open('/profile', { as: user });
      await page.getByText(`Signed in as ${user.username}`).waitFor();
      for (const name of ['Profile', 'Organisation', 'Accounts', 'Credentials']) expect(await tab(page, name).isVisible()).toBe(true);
      expect(await field(page, 'First name').inputValue()).toBe('Ada');
      expect(await field(page, 'Last name').inputValue()).toBe('Lovelace');
      await saveScreenshot(page, 'identity-profile');
      await expectAccessible(page, 'identity-profile');
      await button(page, 'Logout').click();
      await page.getByRole('link', { name: 'Sign-in to index data and more!' }).waitFor();
      expect(hashOf(page)).toBe('#/');
      expect(await storedToken(page)).toBeNull();
    });

    it('saves the personal information and shows per-field server errors', async () => {
      const user = await newFounder('names', { first_name: 'Ada', last_name: 'Lovelace' });
      const page = await open('/profile', { as: user });
      const section = page.getByRole('region', { name: 'Personal Information' });
      await field(page, 'First name').fill('');
      await section.getByRole('button', { name: 'Save' }).click();
      expect(await errorOf(page, 'First name')).toBe('First Name is required');
      await field(page, 'First name').fill('A'.repeat(151));
      await section.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Ensure this field has no more than 150 characters.').waitFor();
      expect(await errorOf(page, 'First name')).toBe('Ensure this field has no more than 150 characters.');
      await field(page, 'First name').fill('Augusta');
      await section.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Your personal information was saved.').waitFor();
      expect(callsTo('PUT', '/api/change-profile-information/').at(-1)).toMatchObject({ status: 200, body: { first_name: 'Augusta', last_name: 'Lovelace' } });
      expect(await get(user.token, '/api/account/user-account/')).toMatchObject({ first_name: 'Augusta', last_name: 'Lovelace' });
    });

    it('changes the password, then logs out because the old session is revoked', async () => {
      const user = await newFounder('changer');
      const page = await open('/profile', { as: user });
      const section = page.getByRole('region', { name: 'Change Password' });
      await section.getByRole('button', { name: 'Change Password' }).click();
      expect(await errorOf(page, 'Current password')).toBe('Current password is required.');
      await field(page, 'Current password').fill('not it');
      await field(page, 'New password').fill('even better horse');
      await field(page, 'Confirm new password').fill('even better hose');
      await section.getByRole('button', { name: 'Change Password' }).click();
      expect(await errorOf(page, 'Confirm new password')).toBe("Passwords don't match.");
      await field(page, 'Confirm new password').fill('even better horse');
      await section.getByRole('button', { name: 'Change Password' }).click();
      await page.getByText('Wrong password.').waitFor();
      expect(await errorOf(page, 'Current password')).toBe('Wrong password.');
      await saveScreenshot(page, 'identity-profile-password-error');
      await expectAccessible(page, 'identity-profile-password-error');

      await field(page, 'Current password').fill(PASSWORD);
      await section.getByRole('button', { name: 'Change Password' }).click();
      await heading(page, 'Login').waitFor();
      expect(hashOf(page)).toBe('#/login');
      await page.getByText('Your password was changed. Please log in again with your new password.').waitFor();
      expect(await storedToken(page)).toBeNull();
      expect(callsTo('PUT', '/api/change-password/').at(-1)).toMatchObject({
        status: 200,
        body: { old_password: PASSWORD, new_password: 'even better horse', new_password_confirm: 'even better horse' },
      });
      // The server no longer accepts the earlier token.
      expect((await apiCall(product, user.token, 'GET', '/api/account/user-account/')).status).toBe(401);
      await saveScreenshot(page, 'identity-login-after-password-change');
      await expectAccessible(page, 'identity-login-after-password-change');
    });

    it('keeps the chosen tab in the address and moves between tabs with the keyboard', async () => {
      const user = await newFounder('tabs');
      const page = await open('/profile', { as: user });
      await tab(page, 'Profile').focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Enter');
      await page.getByRole('region', { name: 'Organisation' }).waitFor();
      expect(hashOf(page)).toBe('#/profile?tab=organisation');
      await page.reload();
      await page.getByRole('region', { name: 'Organisation' }).waitFor();
      expect(await tab(page, 'Organisation').getAttribute('aria-selected')).toBe('true');
    });
  });

  describe('Organisation tab', () => {
    it('is editable with account.change_organisation and saves', async () => {
      const admin = await newFounder('org', { first_name: 'Ocean', last_name: 'Lab' });
      await subAccount(product, admin, `${admin.username}-viewer`, { groups: [3] });
      await subAccount(product, admin, `${admin.username}-analyst`, { groups: [2, 3] });
      const page = await open('/profile?tab=organisation', { as: admin });
      await field(page, 'Name').waitFor();
      expect(await field(page, 'Name').inputValue()).toBe('Ocean Lab');
      expect(await page.getByText('3 members').isVisible()).toBe(true);
      await saveScreenshot(page, 'identity-organisation-editable');
      await expectAccessible(page, 'identity-organisation-editable');
      await field(page, 'Name').fill('Ocean Lab North');
      await field(page, 'Email').fill('lab@example.org');
      await field(page, 'Description').fill('Sea surface and wave data.');
      await button(page, 'Save').click();
      await page.getByText('The organisation was saved.').waitFor();
      expect(callsTo('PUT', `/api/organisation/${admin.organisation}/`).at(-1)).toMatchObject({
        status: 200,
        body: { name: 'Ocean Lab North', email: 'lab@example.org', description: 'Sea surface and wave data.' },
      });
      expect(await get(admin.token, `/api/organisation/${admin.organisation}/`)).toMatchObject({
        name: 'Ocean Lab North',
        email: 'lab@example.org',
        description: 'Sea surface and wave data.',
      });
      // The Profile tab shows the new name too.
      await tab(page, 'Profile').click();
      await page.getByText('Ocean Lab North').waitFor();
    });

    it("shows per-field errors, and a refusal's detail", async () => {
      const admin = await newFounder('orgerr');
      const viewer = await subAccount(product, admin, `${admin.username}-viewer`, { groups: [3] });
      const page = await open('/profile?tab=organisation', { as: admin });
      await field(page, 'Name').fill('');
      await field(page, 'Email').fill('nope');
      await button(page, 'Save').click();
      expect(await errorOf(page, 'Name')).toBe('Name is required.');
      expect(await errorOf(page, 'Email')).toBe('Enter a valid email address.');
      await field(page, 'Email').fill('lab@example.org');
      await field(page, 'Name').fill('N'.repeat(201));
      await button(page, 'Save').click();
      await page.getByText('Ensure this field has no more than 200 characters.').waitFor();
      expect(await errorOf(page, 'Name')).toBe('Ensure this field has no more than 200 characters.');
      await saveScreenshot(page, 'identity-organisation-errors');
      await expectAccessible(page, 'identity-organisation-errors');

      // What the product answers a caller without account.change_organisation, as if the admin had lost it.
      const refusal = await apiCall(product, viewer.token, 'PUT', `/api/organisation/${admin.organisation}/`, { name: 'Mine now' });
      expect(refusal.status).toBe(403);
      const refusalBody = await refusal.json();
      await page.route(`**/api/organisation/${admin.organisation}/`, (route) => route.fulfill({ status: 403, json: refusalBody }), { times: 1 });
      await field(page, 'Name').fill('Still ours');
      await button(page, 'Save').click();
      await alert(page).getByText('You do not have permission to perform this action.').waitFor();
    });

    it('is read-only without account.change_organisation', async () => {
      const admin = await newFounder('orgro', { first_name: 'Ocean', last_name: 'Lab' });
      const viewer = await subAccount(product, admin, `${admin.username}-viewer`, { groups: [3] });
      const page = await open('/profile?tab=organisation', { as: viewer });
      await field(page, 'Name').waitFor();
      expect(await field(page, 'Name').inputValue()).toBe('Ocean Lab');
      for (const label of ['Name', 'Email', 'Description']) expect(await field(page, label).getAttribute('readonly')).not.toBeNull();
      expect(await button(page, 'Save').count()).toBe(0);
      expect(await page.getByText('You can view your organisation but not edit it.', { exact: false }).isVisible()).toBe(true);
      await saveScreenshot(page, 'identity-organisation-read-only');
      await expectAccessible(page, 'identity-organisation-read-only');
    });
  });

  describe('Accounts tab', () => {
    const row = (page: Page, username: string) => page.getByTestId(`account-${username}`);
    const groupBox = (page: Page, group: string, username: string) => page.getByRole('checkbox', { name: `${group} for ${username}`, exact: true });
    /** A founder with a BASIC Data Viewer and a BASIC Data Admin. */
    async function team(prefix: string) {
      const admin = await newFounder(prefix);
      const viewer = await subAccount(product, admin, `${admin.username}-vic`, { groups: [3], first_name: 'Vic', last_name: 'Viewer' });
      const dataAdmin = await subAccount(product, admin, `${admin.username}-dan`, { groups: [2, 3], first_name: 'Dan', last_name: 'Data' });
      return { admin, viewer, dataAdmin };
    }

    it('lists the accounts; own group boxes are disabled, others can be changed', async () => {
      const { admin, viewer, dataAdmin } = await team('acc');
      const page = await open('/profile?tab=accounts', { as: admin });
      await row(page, viewer.username).waitFor();
      expect(await row(page, admin.username).getByText('You').isVisible()).toBe(true);
      for (const group of ['Access Admin', 'Data Admin', 'Data Viewer']) {
        expect(await groupBox(page, group, admin.username).isDisabled()).toBe(true);
        expect(await groupBox(page, group, viewer.username).isEnabled()).toBe(true);
      }
      expect(await groupBox(page, 'Data Viewer', viewer.username).isChecked()).toBe(true);
      expect(await groupBox(page, 'Data Admin', viewer.username).isChecked()).toBe(false);
      await saveScreenshot(page, 'identity-accounts');
      await expectAccessible(page, 'identity-accounts');

      await toggle(groupBox(page, 'Data Admin', viewer.username));
      await page.getByText(`The groups of ${viewer.username} were updated.`).waitFor();
      expect(callsTo('PATCH', `/api/account/${viewer.id}/`).at(-1)).toMatchObject({ status: 200, body: { groups: [2, 3] } });
      expect(await get(admin.token, `/api/account/${viewer.id}/`)).toMatchObject({ groups: [2, 3] });
      expect(await groupBox(page, 'Data Admin', viewer.username).isChecked()).toBe(true);

      // Another admin deleted the account meanwhile: the server's refusal is shown and the box stays as it was.
      expect((await apiCall(product, admin.token, 'DELETE', `/api/account/${dataAdmin.id}/`)).status).toBe(204);
      await toggle(groupBox(page, 'Data Admin', dataAdmin.username));
      await alert(page).getByText('Not found.').waitFor();
      expect(await groupBox(page, 'Data Admin', dataAdmin.username).isChecked()).toBe(true);
      await saveScreenshot(page, 'identity-accounts-group-error');
      await expectAccessible(page, 'identity-accounts-group-error');
    });

    it('creates a BASIC account with New Account, validating it first', async () => {
      const { admin, viewer } = await team('new');
      const page = await open('/profile?tab=accounts', { as: admin });
      await button(page, 'New Account').click();
      const dialog = page.getByRole('dialog', { name: 'New Account' });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Create Account' }).click();
      expect(await errorOf(page, 'Username')).toBe('Username is required.');
      expect(await errorOf(page, 'First name')).toBe('First Name is required');
      await field(page, 'Username').fill(viewer.username);
      await field(page, 'Email').fill(`${admin.username}-nina@example.org`);
      await field(page, 'First name').fill('Nina');
      await field(page, 'Last name').fill('New');
      await field(page, 'Password').fill('welcome aboard');
      await field(page, 'Confirm password').fill('welcome aboard');
      await toggle(dialog.getByRole('checkbox', { name: 'Data Admin' }));
      await saveScreenshot(page, 'identity-accounts-new');
      await expectAccessible(page, 'identity-accounts-new');
      await dialog.getByRole('button', { name: 'Create Account' }).click();
      await dialog.getByText('A user with that username already exists.').waitFor();
      expect(await errorOf(page, 'Username')).toBe('A user with that username already exists.');
      const nina = `${admin.username}-nina`;
      await field(page, 'Username').fill(nina);
      await dialog.getByRole('button', { name: 'Create Account' }).click();
      await dialog.waitFor({ state: 'detached' });
      await row(page, nina).waitFor();
      expect(callsTo('POST', '/api/account/').at(-1)).toMatchObject({
        status: 201,
        body: {
          username: nina,
          email: `${nina}@example.org`,
          first_name: 'Nina',
          last_name: 'New',
          password: 'welcome aboard',
          password_confirm: 'welcome aboard',
          client_type: 'BASIC',
          groups: [2, 3],
        },
      });
      expect(await row(page, nina).getByText('BASIC').isVisible()).toBe(true);
      expect(await apiLogin(product, nina, 'welcome aboard')).toEqual(expect.any(String));
    });

    it('edits an account and sets its password', async () => {
      const { admin, viewer, dataAdmin } = await team('edit');
      const page = await open('/profile?tab=accounts', { as: admin });
      await button(page, `Edit ${viewer.username}`).click();
      const dialog = page.getByRole('dialog', { name: `Edit ${viewer.username}` });
      expect(await field(page, 'Username').getAttribute('readonly')).not.toBeNull();
      await field(page, 'Email').fill(dataAdmin.email);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.getByText('A user with that email already exists.').waitFor();
      await field(page, 'Email').fill(`${admin.username}-victoria@example.org`);
      await field(page, 'First name').fill('Victoria');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'detached' });
      await row(page, viewer.username).getByText(`${admin.username}-victoria@example.org`).waitFor();
      expect(callsTo('PUT', `/api/account/${viewer.id}/`).at(-1)).toMatchObject({
        status: 200,
        body: { username: viewer.username, email: `${admin.username}-victoria@example.org`, first_name: 'Victoria', last_name: 'Viewer' },
      });

      await button(page, `Set password of ${viewer.username}`).click();
      const passwordDialog = page.getByRole('dialog', { name: `Set password of ${viewer.username}` });
      await field(page, 'New password').fill('fresh start');
      await field(page, 'Confirm new password').fill('fresh stark');
      await passwordDialog.getByRole('button', { name: 'Set Password' }).click();
      expect(await errorOf(page, 'Confirm new password')).toBe("Passwords don't match.");
      await field(page, 'Confirm new password').fill('fresh start');
      await saveScreenshot(page, 'identity-accounts-set-password');
      await expectAccessible(page, 'identity-accounts-set-password');
      await passwordDialog.getByRole('button', { name: 'Set Password' }).click();
      await page.getByText(`The password of ${viewer.username} was set.`).waitFor();
      expect(callsTo('POST', `/api/account/${viewer.id}/set_password/`).at(-1)).toMatchObject({
        status: 200,
        body: { new_password: 'fresh start', new_password_confirm: 'fresh start' },
      });
      expect(await apiLogin(product, viewer.username, 'fresh start')).toEqual(expect.any(String));
    });

    it('asks before deleting an account', async () => {
      const { admin, viewer, dataAdmin } = await team('del');
      const page = await open('/profile?tab=accounts', { as: admin });
      await row(page, dataAdmin.username).waitFor();
      // Nobody deletes their own account or sets their own password here.
      expect(await button(page, `Delete ${admin.username}`).count()).toBe(0);
      expect(await button(page, `Set password of ${admin.username}`).count()).toBe(0);
      await button(page, `Delete ${dataAdmin.username}`).click();
      const dialog = page.getByRole('alertdialog');
      await dialog.getByText('Are you sure you want to delete this account?').waitFor();
      await saveScreenshot(page, 'identity-accounts-delete-confirm');
      await expectAccessible(page, 'identity-accounts-delete-confirm');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(callsTo('DELETE', `/api/account/${dataAdmin.id}/`)).toHaveLength(0);
      await button(page, `Delete ${dataAdmin.username}`).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
      await row(page, dataAdmin.username).waitFor({ state: 'detached' });
      expect(callsTo('DELETE', `/api/account/${dataAdmin.id}/`)).toEqual([expect.objectContaining({ status: 204 })]);
      const left = await get<{ results: Array<{ username: string }> }>(admin.token, '/api/account/');
      expect(left.results.map((account) => account.username).sort()).toEqual([admin.username, viewer.username].sort());
    });

    it('without the account permissions: no New Account, no Delete, read-only forms and boxes', async () => {
      const { admin, viewer, dataAdmin } = await team('ro');
      const page = await open('/profile?tab=accounts', { as: viewer });
      await row(page, admin.username).waitFor();
      expect(await button(page, 'New Account').count()).toBe(0);
      expect(await page.getByRole('button', { name: /^Delete / }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /^Set password of / }).count()).toBe(0);
      for (const username of [admin.username, viewer.username, dataAdmin.username])
        expect(await groupBox(page, 'Data Viewer', username).isDisabled()).toBe(true);
      await saveScreenshot(page, 'identity-accounts-read-only');
      await expectAccessible(page, 'identity-accounts-read-only');
      await button(page, `View ${admin.username}`).click();
      const dialog = page.getByRole('dialog', { name: admin.username });
      expect(await field(page, 'Email').getAttribute('readonly')).not.toBeNull();
      expect(await dialog.getByRole('button', { name: 'Save' }).count()).toBe(0);
      await dialog.getByRole('button', { name: 'Close', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
    });
  });

  describe('Credentials tab', () => {
    it('gets an API token and secret with the password and documents the token endpoint', async () => {
      const user = await newFounder('creds');
      const page = await open('/profile?tab=credentials', { as: user });
      await page.getByText('You have no API credentials yet.').waitFor();
      expect(await page.getByText(`${product.base}/api-token-auth/`, { exact: false }).count()).toBeGreaterThan(0);
      expect(await page.locator('pre').first().textContent()).toContain('curl -X POST');
      await saveScreenshot(page, 'identity-credentials-empty');
      await expectAccessible(page, 'identity-credentials-empty');
      await button(page, 'Get API credentials').click();
      expect(await errorOf(page, 'Password')).toBe('Password is required.');
      await field(page, 'Password').fill('wrong');
      await button(page, 'Get API credentials').click();
      await page.getByText('Wrong password.').waitFor();
      expect(await errorOf(page, 'Password')).toBe('Wrong password.');
      await field(page, 'Password').fill(PASSWORD);
      await button(page, 'Get API credentials').click();
      await page.getByTestId('api-credentials').waitFor();
      await page.getByText('Copy the API secret now: it is shown only once.').waitFor();
      const keys = await get<{ api_token: string; api_secret: null; created: string }>(user.token, '/api/user-api-keys/');
      expect(await field(page, 'API token').inputValue()).toBe(keys.api_token);
      const secret = await field(page, 'API secret').inputValue();
      expect(secret).toMatch(/^[\w-]{43}$/);
      expect(keys.api_secret).toBeNull();
      await saveScreenshot(page, 'identity-credentials');
      await expectAccessible(page, 'identity-credentials');

      // The secret was shown once: the next visit says that a pair exists and when, and the pair works at the token endpoint.
      await page.reload();
      await page.getByTestId('api-secret-created').waitFor();
      expect(await page.getByTestId('api-secret-created').textContent()).toContain(keys.created.slice(0, 10));
      expect(await page.getByLabel('API secret').count()).toBe(0);
      expect(await field(page, 'API token').inputValue()).toBe(keys.api_token);
      await saveScreenshot(page, 'identity-credentials-later');
      await expectAccessible(page, 'identity-credentials-later');
      expect(await apiLogin(product, keys.api_token, secret)).toEqual(expect.any(String));
    });
  });

  it('fits a narrow screen', async () => {
    const admin = await newFounder('narrow');
    const viewer = await subAccount(product, admin, `${admin.username}-vic`, { groups: [3] });
    let page = await open('/register', { width: 390 });
    await heading(page, 'Sign Up').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await saveScreenshot(page, 'identity-narrow-register');
    await expectAccessible(page, 'identity-narrow-register');
    await context?.close();
    page = await open('/profile?tab=accounts', { as: admin, width: 390 });
    await page.getByTestId(`account-${viewer.username}`).waitFor();
    // The accounts table scrolls inside its own box; the page itself does not scroll sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await saveScreenshot(page, 'identity-narrow-accounts');
    await expectAccessible(page, 'identity-narrow-accounts');
  });
});
