import type { Page } from 'playwright-core';
import { describeInfra, expectAccessible, saveScreenshot } from '@dc/testing';
import { alert, button, CHROMIUM, errorOf, field, heading, identityScreens, logIn, main } from './identity-screens';
import { apiCall, linkIn, mailFiles, newestMail } from './real-product';

// Sign Up and Password Reset against the real product in embedded mode: real accounts, real
// messages, real mail (.eml files).
describeInfra('identity screens in chromium (real product): Sign Up and Password Reset', CHROMIUM, () => {
  jest.setTimeout(120_000);
  const screens = identityScreens('identity-registration');
  const { newFounder, open, callsTo } = screens;

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
      const before = mailFiles(screens.product);
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
      const mail = await newestMail(screens.product, 'grace@example.org', /activate/i, before);
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
      const before = mailFiles(screens.product);
      expect((await apiCall(screens.product, null, 'POST', '/api/password/confirm/', { email: user.email })).status).toBe(200);
      const link = linkIn(await newestMail(screens.product, user.email, /password/i, before));

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
});
