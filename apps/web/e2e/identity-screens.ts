// Shared set-up and page helpers of the identity screens' browser suites (identity-*.e2e-spec.ts).
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { isChromiumInstalled, launchChromium } from '@dc/testing';
import { apiCall, founder, startRealProduct, type RealProduct, type SignedIn } from './real-product';

export const TOKEN_KEY = 'dc.token';
export const PASSWORD = 'correct horse battery';
/** describeInfra's condition for the browser suites. */
export const CHROMIUM = isChromiumInstalled() || 'chromium is not installed (apt-get install chromium)';

/** An API call the page made, and what the server answered. */
export interface Call {
  method: string;
  path: string;
  body: unknown;
  status?: number;
}

export const hashOf = (page: Page) => new URL(page.url()).hash;
export const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });
/** An input by its label; a required field's label ends in the (aria-hidden) "*" indicator. */
export const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\*?$`));
export const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
export const alert = (page: Page) => page.getByRole('alert');
/** The error message shown under a field (Chakra's Field.ErrorText, linked by aria-errormessage). */
export async function errorOf(page: Page, label: string): Promise<string | null> {
  const id = await field(page, label).getAttribute('aria-errormessage');
  return id ? page.locator(`[id="${id}"]`).textContent() : null;
}
export const storedToken = (page: Page) => page.evaluate((key) => localStorage.getItem(key) ?? sessionStorage.getItem(key), TOKEN_KEY);
export const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });
export const main = (page: Page) => page.locator('#main-content');
/** Ticks or clears a checkbox the way a keyboard user does (Chakra draws its box over the input). */
export async function toggle(box: ReturnType<Page['getByRole']>) {
  await box.focus();
  await box.press('Space');
}
export async function logIn(page: Page, username: string, password: string, remember = false) {
  await field(page, 'Username').fill(username);
  await field(page, 'Password').fill(password);
  if (remember) await toggle(page.getByRole('checkbox', { name: 'Remember me' }));
  await button(page, 'Login').click();
}

/**
 * Starts the real product (embedded mode) and chromium for one suite: call it in the suite's body.
 * Each test's browser profile (`context`) is closed after it; `calls` holds the API calls of the
 * page opened last.
 */
export function identityScreens(productName: string) {
  let people = 0;
  const screens = {
    product: undefined as unknown as RealProduct,
    browser: undefined as unknown as Browser,
    context: undefined as BrowserContext | undefined,
    calls: [] as Call[],

    /** A founder of a new organisation with a name of its own, so tests share no state. */
    newFounder: (prefix: string, names: { first_name?: string; last_name?: string } = {}) => founder(screens.product, `${prefix}${++people}`, PASSWORD, names),

    /** A fresh browser profile at `#hash`, signed in with `as`'s token when given. */
    async open(
      hash: string,
      options: { as?: SignedIn; width?: number; storageState?: Awaited<ReturnType<BrowserContext['storageState']>> } = {},
    ): Promise<Page> {
      screens.context = await screens.browser.newContext({ viewport: { width: options.width ?? 1280, height: 900 }, storageState: options.storageState });
      await screens.context.addInitScript(
        ({ key, token }) => {
          if (!token || sessionStorage.getItem('seeded')) return;
          sessionStorage.setItem('seeded', '1');
          localStorage.setItem(key, token);
        },
        { key: TOKEN_KEY, token: options.as?.token },
      );
      const page = await screens.context.newPage();
      screens.calls = [];
      record(page);
      await page.goto(`${screens.product.base}/#${hash}`);
      return page;
    },

    callsTo: (method: string, path: string) => screens.calls.filter((call) => call.method === method && call.path === path),
    get: async <T>(token: string, path: string) => (await (await apiCall(screens.product, token, 'GET', path)).json()) as T,
  };

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
      screens.calls.push(call);
    });
    page.on('response', (response) => {
      const call = byRequest.get(response.request());
      if (call) call.status = response.status();
    });
  }

  beforeAll(async () => {
    screens.product = await startRealProduct(productName);
    screens.browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await screens.browser?.close();
    await screens.product?.stop();
  }, 60_000);

  afterEach(async () => {
    await screens.context?.close();
    screens.context = undefined;
  });

  return screens;
}
