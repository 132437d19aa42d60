/**
 * Debian's Chromium for the browser tests (never a browser download), headless, driven by
 * playwright-core. Where /usr/bin/chromium is missing the tests are skipped and say so; .ci/run
 * installs Chromium, so there they always run.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import axe from 'axe-core';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { startTestApi, type TestApi, type TestApiOptions } from './test-api';

const CHROMIUM = '/usr/bin/chromium';
/** Where the browser tests leave their screenshots (git-ignored). */
export const ARTIFACTS = resolve(__dirname, '../../test-artifacts');
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const chromiumInstalled = existsSync(CHROMIUM);

/** `test`, or `test.skip` with a warning naming what is missing; and the note to append to test names. */
export function browserTestOf(what: string): { browserTest: typeof test; skipNote: string } {
  if (!chromiumInstalled) console.warn(`SKIPPED: ${what} needs Chromium at ${CHROMIUM} (apt-get install chromium; .ci/run does it).`);
  return { browserTest: chromiumInstalled ? test : test.skip, skipNote: chromiumInstalled ? '' : ` [SKIPPED: no Chromium at ${CHROMIUM}]` };
}

export interface Browser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** A persistent context on a fresh directory: the browser starts with a clean --user-data-dir. */
export async function launchChromium(permissions: readonly string[] = []): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'petstore-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
    permissions: [...permissions],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface BrowserSession {
  readonly api: TestApi;
  readonly browser: BrowserContext;
}

/**
 * A test file's preamble: the local API (on fresh tables) and Chromium start before its tests, when
 * Chromium is installed, and stop after them. `options` is read then, so it may use what earlier
 * `beforeAll` hooks started. `permissions` are granted to every page (e.g. `clipboard-read`).
 */
export function useBrowserAndApi(options: () => TestApiOptions = () => ({}), permissions: readonly string[] = []): () => BrowserSession {
  let started: { api: TestApi; chromium: Browser } | undefined;
  beforeAll(async () => {
    if (!chromiumInstalled) return;
    const api = await startTestApi(options());
    started = { api, chromium: await launchChromium(permissions) };
  }, 60_000);
  afterAll(async () => {
    await started?.chromium.close();
    await started?.api.close();
  });
  return () => {
    if (!started) throw new Error('the browser and the API start in beforeAll: use them inside tests');
    return { api: started.api, browser: started.chromium.context };
  };
}

/** The widths the portal is checked at: a phone held upright and a laptop. */
export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;

/** How many CSS pixels the page runs out of the viewport sideways: 0 when nothing overflows. */
export const horizontalOverflow = (page: Page): Promise<number> =>
  page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');

interface Finding {
  readonly id: string;
  readonly impact?: string | null;
  readonly targets: string[];
}

/** axe-core's serious and critical findings on the page as it is now, one `rule (impact): element` line each. */
export const seriousAccessibilityFindings = (page: Page): Promise<string[]> => accessibilityFindings(page, ['serious', 'critical']);

/** axe-core's findings of these impacts (default: all) on the page as it is now, one `rule (impact): element` line each. */
export async function accessibilityFindings(page: Page, impacts?: readonly string[]): Promise<string[]> {
  // Through the DevTools protocol, so the page's Content-Security-Policy does not apply to the injection.
  await page.evaluate(axe.source);
  const violations = await page.evaluate<Finding[]>(
    `axe.run(document, { resultTypes: ['violations'] }).then(({ violations }) =>
      violations.map(({ id, impact, nodes }) => ({ id, impact, targets: nodes.map((node) => node.target.join(' ')) })))`,
  );
  return violations
    .filter(({ impact }) => impacts === undefined || impacts.includes(impact ?? ''))
    .flatMap(({ id, impact, targets }) => targets.map((target) => `${id} (${impact ?? ''}): ${target}`));
}
