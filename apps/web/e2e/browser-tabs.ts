import type { Browser, BrowserContext } from 'playwright-core';
import { launchChromium } from '@dc/testing';

/** A suite's Chromium and the browser profile of its current test. */
export interface BrowserTabs {
  readonly browser: Browser;
  /** The current test's profile, closed after each test. */
  readonly context: BrowserContext | undefined;
  /** Starts Chromium: call it last in the suite's beforeAll. */
  launch(): Promise<void>;
  /** A fresh browser profile (by default 1280 by 900), the current one from now on. */
  newContext(viewport?: { width: number; height: number }): Promise<BrowserContext>;
  /** Closes the current profile and Chromium: call it first in the suite's afterAll. */
  close(): Promise<void>;
}

/** One Chromium for a suite and a fresh profile per test; registers the afterEach hook that closes the test's profile. */
export function browserTabs(): BrowserTabs {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  const closeContext = async () => {
    await context?.close();
    context = undefined;
  };
  afterEach(closeContext);
  return {
    get browser() {
      if (!browser) throw new Error('Chromium is not launched yet');
      return browser;
    },
    get context() {
      return context;
    },
    async launch() {
      browser = await launchChromium();
    },
    async newContext(viewport = { width: 1280, height: 900 }) {
      if (!browser) throw new Error('Chromium is not launched yet');
      context = await browser.newContext({ viewport });
      return context;
    },
    async close() {
      await closeContext();
      await browser?.close();
    },
  };
}

/**
 * Seeds a tab's storage once, before the app reads it, so that a later sign-out or change sticks
 * across reloads: the given localStorage and sessionStorage entries, empty ones left out.
 */
export async function seedStorageOnce(
  context: BrowserContext,
  seed: { local?: Record<string, string | null | undefined>; session?: Record<string, string | null | undefined> },
): Promise<void> {
  await context.addInitScript(({ local, session }) => {
    if (sessionStorage.getItem('seeded')) return;
    sessionStorage.setItem('seeded', '1');
    for (const [key, value] of Object.entries(local ?? {})) if (value) localStorage.setItem(key, value);
    for (const [key, value] of Object.entries(session ?? {})) if (value) sessionStorage.setItem(key, value);
  }, seed);
}
