/**
 * GET /docs in a real browser: Debian's Chromium (never a browser download), headless, driven by
 * playwright-core. Where /usr/bin/chromium is missing the test is skipped and says so; .ci/run
 * installs Chromium, so there it always runs. Screenshots land in test-artifacts/.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { OPERATIONS } from '../../openapi/operations';
import { ROUTES } from '../../lib/routes';
import { startTestApi, type TestApi } from '../support/test-api';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = resolve(__dirname, '../../test-artifacts');
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

const chromiumInstalled = existsSync(CHROMIUM);
if (!chromiumInstalled) {
  console.warn(`SKIPPED: the API reference browser test needs Chromium at ${CHROMIUM} (apt-get install chromium; .ci/run does it).`);
}
const browserTest = chromiumInstalled ? test : test.skip;
const skipNote = chromiumInstalled ? '' : ` [SKIPPED: no Chromium at ${CHROMIUM}]`;

let api: TestApi;
let profile: string;
let browser: BrowserContext;
beforeAll(async () => {
  if (!chromiumInstalled) return;
  api = await startTestApi();
  profile = mkdtempSync(join(tmpdir(), 'petstore-chromium-'));
  // A persistent context on a fresh directory: the browser starts with a clean --user-data-dir.
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
  });
}, 60_000);
afterAll(async () => {
  if (!chromiumInstalled) return;
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
  await api.close();
});

browserTest(
  `GET /docs shows listPets, createPet, getPet (deprecated) and submitMessage, loading nothing from outside the local server${skipNote}`,
  async () => {
    const page = browser.pages()[0] ?? (await browser.newPage());
    const requested: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));

    await page.goto(`${api.origin}/docs`);
    await expect(page.title()).resolves.toBe('Pet Store API reference');
    await page.locator('.information-container .title').getByText('Pet Store API').waitFor();

    for (const route of ROUTES) {
      const { tag } = OPERATIONS[route.operationId];
      const operation = page.locator(`#operations-${tag}-${route.operationId}`);
      await operation.waitFor();
      const summary = await operation.locator('.opblock-summary').innerText();
      expect(summary).toContain(route.method);
      expect(summary).toContain(route.operationId);
    }
    await expect(page.locator('#operations-pets-getPet').getAttribute('class')).resolves.toContain('opblock-deprecated');

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'api-reference.png'), fullPage: true });

    // One operation opened: parameters, the deprecation notice and every documented answer render.
    const getPet = page.locator('#operations-pets-getPet');
    await getPet.locator('.opblock-summary').click();
    await getPet.locator('.responses-table').first().waitFor();
    await expect(getPet.innerText()).resolves.toMatch(/5 December 2030/);
    await getPet.screenshot({ path: join(ARTIFACTS, 'api-reference-getPet.png') });

    expect(requested.filter((url) => !url.startsWith(`${api.origin}/`))).toEqual([]);
    expect(problems).toEqual([]);
  },
  120_000,
);
