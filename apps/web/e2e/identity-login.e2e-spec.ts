import { describeInfra, expectAccessible, saveScreenshot } from '@dc/testing';
import { alert, button, CHROMIUM, errorOf, field, hashOf, heading, identityScreens, logIn, PASSWORD, storedToken, tab, TOKEN_KEY } from './identity-screens';
import { apiCall, apiLogin, linkIn, mailFiles, newestMail } from './real-product';

// Login against the real product in embedded mode: real accounts, real messages, real mail (.eml files).
// Two cases force an answer the product gives only when something else has gone wrong (a 500, a
// second login message); they start from the real server's own answer (page.route + route.fetch).
describeInfra('identity screens in chromium (real product): Login', CHROMIUM, () => {
  jest.setTimeout(120_000);
  const screens = identityScreens('identity-login');
  const { newFounder, open, callsTo } = screens;

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
        const answer = await fetch(`${screens.product.base}/api-token-auth/`, {
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
        const saved = await screens.context!.storageState();
        await screens.context!.close();
        page = await open('/profile', { storageState: saved });
        if (remember) await page.getByText(`Signed in as ${user.username}`).waitFor();
        else await page.getByText('Please log in to see your profile.').waitFor();
        expect(await storedToken(page)).toBe(remember ? stored.local : null);
        await screens.context!.close();
        screens.context = undefined;
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
        await page.goto(`${screens.product.base}/#${hash}`);
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
      const before = mailFiles(screens.product);
      const response = await apiCall(screens.product, null, 'POST', '/api/register/', {
        username: 'linked',
        email: 'linked@example.org',
        first_name: 'Lin',
        last_name: 'Ked',
        description: 'Links',
        password: PASSWORD,
        password_confirm: PASSWORD,
      });
      expect(response.status).toBe(201);
      const link = linkIn(await newestMail(screens.product, 'linked@example.org', /activate/i, before));
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
      const other = await apiLogin(screens.product, user.username, PASSWORD);
      const changed = await apiCall(screens.product, other, 'PUT', '/api/change-password/', {
        old_password: PASSWORD,
        new_password: 'changed elsewhere',
        new_password_confirm: 'changed elsewhere',
      });
      expect(changed.status).toBe(200);
      const before = screens.calls.length;

      await tab(page, 'Accounts').click();
      await page.getByText('Your session has ended. Please log in again.').waitFor();
      expect(hashOf(page)).toBe('#/login?session=ended');
      expect(await storedToken(page)).toBeNull();
      // It was the accounts list that was refused, not the user-account query.
      expect(
        screens.calls
          .slice(before)
          .filter((call) => call.status === 401)
          .map((call) => `${call.method} ${call.path}`),
      ).toContain('GET /api/account/');
      expect(screens.calls.slice(before).filter((call) => call.path === '/api/account/user-account/')).toEqual([]);
      await saveScreenshot(page, 'identity-session-ended');
      await expectAccessible(page, 'identity-session-ended');
      await logIn(page, user.username, 'changed elsewhere');
      await heading(page, 'Workspace').waitFor();
    });
  });
});
