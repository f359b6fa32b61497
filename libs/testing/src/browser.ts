import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's chromium package; nothing downloads a browser build of its own here. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const repoRoot = path.resolve(__dirname, '../../..');

/** Screenshots kept as test artefacts (CI keeps test-artifacts/). */
export const SCREENSHOTS_DIR = path.join(repoRoot, 'test-artifacts', 'screenshots');

export function isChromiumInstalled(): boolean {
  return existsSync(CHROMIUM_PATH);
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    // Headless, sandbox-free (tests run as root) and quiet: no background calls leave the machine.
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Saves a full-page PNG as test-artifacts/screenshots/<name>.png and returns its path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const file = path.join(SCREENSHOTS_DIR, `${name.replace(/[^\w.-]+/g, '-')}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** axe-core's browser bundle, read once; evaluated in the page, so a Content-Security-Policy does not block it. */
let axeSource: string | undefined;

export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  /** The offending elements: selector, and what axe says is wrong with each. */
  nodes: Array<{ target: string; html: string; summary: string }>;
}

/** Serious and critical axe-core violations of the page as it is now (the whole document, dialogs included). */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    // Runs in the page; this library is compiled without the DOM types, hence the narrow shapes.
    interface Animation {
      finished: Promise<unknown>;
      effect: { getComputedTiming(): { iterations?: number } } | null;
    }
    const page = globalThis as unknown as { document: { getAnimations?(): Animation[] }; axe: typeof import('axe-core') };
    // Let entry transitions (dialogs, toasts fading in) end: half-faded text fails colour contrast.
    const animations = (page.document.getAnimations?.() ?? []).filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity);
    await Promise.race([
      Promise.all(animations.map((animation) => animation.finished.catch(() => undefined))),
      new Promise((resolve) => setTimeout(resolve, 2_000)),
    ]);
    const results = await page.axe.run(page.document as never, { resultTypes: ['violations'] });
    return results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({
        id: violation.id,
        impact: violation.impact as string,
        help: violation.help,
        nodes: violation.nodes.map((node) => ({ target: node.target.join(' '), html: node.html, summary: node.failureSummary ?? '' })),
      }));
  });
}

/**
 * Fails unless axe-core finds no serious or critical violation on the page; `screen` names it in the
 * message. With A11Y_LOG=<file> each check also appends `{screen, violations}` as a JSON line, and
 * with A11Y_REPORT_ONLY=1 it only logs (to count what is left on every screen in one run).
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const violations = await seriousAxeViolations(page);
  if (process.env.A11Y_LOG) appendFileSync(process.env.A11Y_LOG, `${JSON.stringify({ screen, count: violations.length, violations })}\n`);
  if (violations.length === 0 || process.env.A11Y_REPORT_ONLY === '1') return;
  const lines = violations.map(
    (violation) =>
      `- ${violation.id} (${violation.impact}): ${violation.help}\n${violation.nodes.map((node) => `    ${node.target} ${node.html}: ${node.summary.replace(/\n\s*/g, ' ')}`).join('\n')}`,
  );
  throw new Error(`axe-core found ${violations.length} serious or critical violation(s) on ${screen}:\n${lines.join('\n')}`);
}
