/**
 * The API reference page (the portal's, the only one) in a real browser (test/support/chromium.ts),
 * without signing in. Screenshots land in test-artifacts/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { OPERATION_DOCS } from '#openapi/operation-docs';
import { ROUTES } from '#shared/routes';
import { ARTIFACTS, VIEWPORTS, accessibilityFindings, browserTestOf, horizontalOverflow, useBrowserAndApi } from '../support/chromium';

const { browserTest, skipNote } = browserTestOf('the API reference browser test');

const session = useBrowserAndApi(() => ({ accounts: true }));

browserTest(
  `/portal/reference.html shows listPets, createPet, getPet (deprecated) on the pets base URL and, with ?api=messages, submitMessage on the messages base URL, loading nothing from elsewhere${skipNote}`,
  async () => {
    const { api, browser } = session();
    const page = browser.pages()[0] ?? (await browser.newPage());
    const requested: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));

    await page.goto(`${api.origin}/portal/reference.html`);
    await expect(page.title()).resolves.toBe('Pet Store API reference');
    await page.locator('.information-container .title').getByText('Pet Store API').waitFor();
    await expect(page.locator('.servers select').innerText()).resolves.toContain(api.petsBaseUrl);

    for (const route of ROUTES.filter((candidate) => candidate.api === 'pets')) {
      const { tag } = OPERATION_DOCS[route.operationId];
      const operation = page.locator(`#operations-${tag}-${route.operationId}`);
      await operation.waitFor();
      const summary = await operation.locator('.opblock-summary').innerText();
      expect(summary).toContain(route.method);
      expect(summary).toContain(route.operationId);
    }
    await expect(page.locator('#operations-pets-getPet').getAttribute('class')).resolves.toContain('opblock-deprecated');
    // The prose names the address this page is served from, not npm start's default port.
    const description = await page.locator('.information-container .description').innerText();
    expect(description).toContain(api.petsBaseUrl);
    expect(description).not.toContain('127.0.0.1:3000');

    // The portal's stylesheet styles the page header only: none of its rules reaches Swagger UI.
    await page.locator('section.models').waitFor();
    const styledByPortal = await page.evaluate<string[]>(`(() => {
      const sheet = [...document.styleSheets].find((candidate) => candidate.href?.endsWith('/style.css'));
      const rules = (list) => [...list].flatMap((rule) => (rule.selectorText ? [rule] : rule.cssRules ? rules(rule.cssRules) : []));
      const reference = document.querySelector('#api-reference');
      return rules(sheet.cssRules).flatMap((rule) => (reference.querySelector(rule.selectorText) ? [rule.selectorText] : []));
    })()`);
    expect(styledByPortal).toEqual([]);

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'api-reference.png'), fullPage: true });

    // One operation opened: parameters, the deprecation notice and every documented answer render.
    const getPet = page.locator('#operations-pets-getPet');
    await getPet.locator('.opblock-summary').click();
    await getPet.locator('.responses-table').first().waitFor();
    await expect(getPet.innerText()).resolves.toMatch(/5 December 2030/);
    await getPet.screenshot({ path: join(ARTIFACTS, 'api-reference-getPet.png') });

    // The messages API has a document of its own, on its own base URL.
    await page.goto(`${api.origin}/portal/reference.html?api=messages`);
    await page.locator('.information-container .title').getByText('Pet Store messages API').waitFor();
    await expect(page.locator('.servers select').innerText()).resolves.toContain(api.origin);
    await expect(page.locator('.servers select').innerText()).resolves.not.toContain(api.petsBaseUrl);
    await expect(page.locator('#operations-messages-submitMessage .opblock-summary').innerText()).resolves.toContain('POST');

    expect(requested.filter((url) => !url.startsWith(`${api.origin}/`))).toEqual([]);
    expect(problems).toEqual([]);
  },
  120_000,
);

describe.each(Object.entries(VIEWPORTS))('at %s width', (_name, viewport) => {
  browserTest.each(['pets', 'messages', 'account'])(
    `the %s reference fits the width and axe-core finds nothing, as loaded and with every operation open${skipNote}`,
    async (document) => {
      const { api, browser } = session();
      const page = await browser.newPage();
      await page.setViewportSize(viewport);
      await page.goto(`${api.origin}/portal/reference.html?api=${document}`);
      await page.locator('section.models').waitFor();
      await expect(horizontalOverflow(page)).resolves.toBeLessThanOrEqual(0);
      await expect(accessibilityFindings(page)).resolves.toEqual([]);

      for (const operation of await page.locator('.opblock').all()) {
        await operation.locator('.opblock-summary-control').click();
        await operation.locator('.responses-table').waitFor();
      }
      await expect(horizontalOverflow(page)).resolves.toBeLessThanOrEqual(0);
      await expect(accessibilityFindings(page)).resolves.toEqual([]);
      await page.close();
    },
    60_000,
  );
});
