/**
 * The developer portal in a real browser (Debian's Chromium, headless, driven by playwright-core), on
 * the local server with cognito-local, as a new user goes through it: sign up, confirm, sign in,
 * create a key, copy it, call GET /v1/pets with it from the page, open the API reference with it,
 * revoke it, see it refused, delete the account. Screenshots land in test-artifacts/portal-*.png.
 *
 * The pets API's authorizer caches key lookups for 60 s per instance; here every request's authorizer
 * is a fresh instance (test API option `freshAuthorizer`), so the revoked key is refused at once
 * instead of within the cache window the page announces.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ARTIFACTS, browserTestOf, useBrowserAndApi } from '../support/chromium';

const { browserTest, skipNote } = browserTestOf('the portal browser test');
const session = useBrowserAndApi(() => ({ accounts: true, freshAuthorizer: true }), ['clipboard-read', 'clipboard-write']);

const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `portal-${name}.png`), fullPage: true });

browserTest(
  `a new user signs up, confirms, signs in, creates, copies, uses and revokes a key, and deletes the account, loading nothing from outside the local servers${skipNote}`,
  async () => {
    const { api, browser } = session();
    mkdirSync(ARTIFACTS, { recursive: true });
    const cognito = api.accounts?.cognito;
    if (!cognito) throw new Error('the test API runs without accounts');
    const page = browser.pages()[0] ?? (await browser.newPage());
    const requested: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('dialog', (dialog) => void dialog.accept());
    const notice = page.locator('#notice');

    await page.goto(`${api.origin}/portal/`);
    await expect(page.title()).resolves.toBe('Pet Store developer portal');
    await expect(page.locator('#code-hint').innerText()).resolves.toContain('printed in the terminal running npm start');
    await shot(page, '1-signed-out');

    const email = `portal-${process.pid}@example.com`;
    const password = 'Correct-Horse-Battery-9';
    await page.locator('#sign-up [name=email]').fill(email);
    await page.locator('#sign-up [name=password]').fill(password);
    await page.locator('#sign-up button').click();
    await notice.getByText('Account created').waitFor();
    const code = cognito.lastCode(email);
    expect(code).toMatch(/^\d{6}$/);
    await page.locator('#confirm [name=code]').fill(code ?? '');
    await page.locator('#confirm button').click();
    await notice.getByText('Email confirmed').waitFor();

    await page.locator('#sign-in [name=password]').fill(password);
    await page.locator('#sign-in button').click();
    await page.locator('#who').getByText(email).waitFor();
    await page.locator('#keys').getByText('No keys yet').waitFor();
    await shot(page, '2-signed-in');

    await page.locator('#create-key [name=description]').fill('browser test');
    await page.locator('#create-key button').click();
    await page.locator('#new-key').waitFor();
    const key = await page.locator('#new-key-value').innerText();
    expect(key).toMatch(/^pst_/);
    await expect(page.locator('#new-key-curl').innerText()).resolves.toBe(`curl -H 'Authorization: Bearer ${key}' ${api.petsBaseUrl}/pets`);
    await page.locator('#copy-key').click();
    await notice.getByText('copied').waitFor();
    await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(key);
    await page.locator('#test-key').click();
    await page.locator('#test-result').getByText('GET /pets answered 200 OK').waitFor();
    const row = page.locator('#keys tbody tr', { hasText: 'browser test' });
    await row.getByText('active').waitFor();
    await shot(page, '3-key-created');

    // The API reference, with this stage's base URL and the new key filled in for "Try it out".
    await page.locator('#try-key').click();
    await page.locator('#operations-pets-listPets').waitFor();
    await expect(page.locator('#try-note').innerText()).resolves.toContain('The key you just created is filled in');
    await expect(page.locator('.servers select').innerText()).resolves.toContain(api.petsBaseUrl);
    await expect(page.evaluate('JSON.stringify(window.ui.authSelectors.authorized())')).resolves.toContain(key);
    await shot(page, '4-reference');
    await page.goBack();

    await page.locator('#keys tbody tr', { hasText: 'browser test' }).getByRole('button', { name: 'Revoke' }).click();
    await notice.getByText('stops working within 60 seconds').waitFor();
    await page.locator('#keys tbody tr', { hasText: 'browser test' }).getByText('revoked').waitFor();
    const refused = await page.evaluate(
      async ([url, bearer]) => (await fetch(url, { headers: { authorization: `Bearer ${bearer}` } })).status,
      [`${api.petsBaseUrl}/pets`, key] as const,
    );
    expect(refused).toBe(401);
    await shot(page, '5-key-revoked');

    await page.locator('#delete-account').click();
    await notice.getByText('Your account is deleted').waitFor();
    await page.locator('#sign-in [name=email]').fill(email);
    await page.locator('#sign-in [name=password]').fill(password);
    await page.locator('#sign-in button').click();
    await page.locator('#problem').getByText('Incorrect email or password').waitFor();
    await shot(page, '6-account-deleted');

    const local = [`${api.origin}/`, cognito.endpoint];
    expect(requested.filter((url) => !local.some((origin) => url.startsWith(origin)))).toEqual([]);
    expect(problems).toEqual([]);
  },
  120_000,
);
