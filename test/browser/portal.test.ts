/**
 * The developer portal in a real browser (Debian's Chromium, headless, driven by playwright-core), on
 * the local server with cognito-local, as people use it: at a phone's width (390×844) and a laptop's
 * (1280×800), with axe-core's accessibility check on each state. Screenshots land in
 * test-artifacts/portal-*.png.
 *
 * The pets API's authorizer caches key lookups for 60 s per instance; here every request's authorizer
 * is a fresh instance (test API option `freshAuthorizer`), so the revoked key is refused at once
 * instead of within the cache window the page announces.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { ACCESS_TOKEN_VALIDITY_MINUTES, PORTAL_PATH } from '#shared/accounts';
import { portalSecurityPolicy } from '#shared/portal-files';
import { cognitoCall, newUser } from '../support/cognito-users';
import {
  ARTIFACTS,
  VIEWPORTS,
  browserTestOf,
  horizontalOverflow,
  seriousAccessibilityFindings,
  useBrowserAndApi,
} from '../support/chromium';

const { browserTest, skipNote } = browserTestOf('the portal browser tests');
const session = useBrowserAndApi(() => ({ accounts: true, freshAuthorizer: true }), ['clipboard-read', 'clipboard-write']);

const PASSWORD = 'Correct-Horse-Battery-9';
let users = 0;
const newEmail = (what: string) => `portal-${what}-${process.pid}-${users++}@example.com`;

function cognitoOf() {
  const cognito = session().api.accounts?.cognito;
  if (!cognito) throw new Error('the test API runs without accounts');
  return cognito;
}

function codeFor(email: string): string {
  const code = cognitoOf().lastCode(email);
  if (!code) throw new Error(`no code was sent to ${email}`);
  expect(code).toMatch(/^\d{6}$/);
  return code;
}

/** A page at the given size that records what it loads and every error it reports. */
async function openPortal(viewport: { width: number; height: number }) {
  const { api, browser } = session();
  mkdirSync(ARTIFACTS, { recursive: true });
  const page = await browser.newPage();
  await page.setViewportSize(viewport);
  const requested: string[] = [];
  const problems: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  page.on('pageerror', (error) => problems.push(error.message));
  // Answers the test asks for (a revoked key, a deleted account's sign-in) are logged as failed loads: those are
  // checked by status instead, so an icon or page refused by the gateway still counts.
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(message.text());
  });
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'fetch' && response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  page.on('dialog', (dialog) => void dialog.accept());
  await page.goto(`${api.origin}${PORTAL_PATH}/`);
  await page.locator('#code-hint').getByText('printed in the terminal').waitFor();
  return { page, requested, problems };
}

/** Whether the element is wholly inside the viewport (so the user sees it without scrolling). */
async function inViewport(locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const viewport = locator.page().viewportSize();
  if (!box || !viewport || box.width === 0) return false;
  return box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width && box.y + box.height <= viewport.height;
}

const messageOf = (page: Page, form: string) => page.locator(`${form} > .message`);

async function signUpAndConfirm(page: Page, email: string, password = PASSWORD) {
  await page.locator('#sign-up [name=email]').fill(email);
  await page.locator('#sign-up [name=password]').fill(password);
  await page.locator('#sign-up button').click();
  await messageOf(page, '#confirm').getByText('Account created').waitFor();
  await page.locator('#confirm [name=code]').fill(codeFor(email));
  await page.locator('#confirm button[type=submit]').click();
  await messageOf(page, '#sign-in').getByText('Email confirmed').waitFor();
}

async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.locator('#sign-in [name=email]').fill(email);
  await page.locator('#sign-in [name=password]').fill(password);
  await page.locator('#sign-in button').click();
  await page.locator('#who').getByText(email).waitFor();
}

describe.each(Object.entries(VIEWPORTS))('the portal at %s width', (name, viewport) => {
  const shot = (page: Page, step: string) => page.screenshot({ path: join(ARTIFACTS, `portal-${name}-${step}.png`), fullPage: true });

  browserTest(
    `a new user signs up, signs in, creates, copies, uses and revokes a key and deletes the account; the page fits ${viewport.width} px, keeps no key or token in storage, and axe finds nothing serious${skipNote}`,
    async () => {
      const { api, browser } = session();
      const { page, requested, problems } = await openPortal(viewport);
      const refreshTokens: string[] = [];
      page.on('response', (response) => {
        if (response.url() !== cognitoOf().endpoint || response.request().method() !== 'POST') return;
        void response.json().then(
          (body: { AuthenticationResult?: { RefreshToken?: string } }) => {
            if (body.AuthenticationResult?.RefreshToken) refreshTokens.push(body.AuthenticationResult.RefreshToken);
          },
          () => undefined,
        );
      });
      await expect(page.title()).resolves.toBe('Pet Store developer portal');
      await expect(horizontalOverflow(page)).resolves.toBeLessThanOrEqual(0);
      await expect(seriousAccessibilityFindings(page)).resolves.toEqual([]);
      await shot(page, '1-signed-out');

      const email = newEmail(name);
      await signUpAndConfirm(page, email);
      await signIn(page, email);
      await page.locator('#keys').getByText('No keys yet').waitFor();
      await expect(horizontalOverflow(page)).resolves.toBeLessThanOrEqual(0);
      await shot(page, '2-signed-in');

      await page.locator('#create-key [name=description]').fill('browser test');
      await page.locator('#create-key button').click();
      await page.locator('#new-key').waitFor();
      const key = await page.locator('#new-key-value').innerText();
      expect(key).toMatch(/^pst_/);
      const curl = page.locator('#new-key-curl');
      await expect(curl.innerText()).resolves.toBe(`curl -H 'Authorization: Bearer ${key}' ${api.petsBaseUrl}/pets`);
      // The snippet wraps inside its box: nothing of it is cut off or pushes the page sideways.
      await expect(
        curl.evaluate((element: { scrollWidth: number; clientWidth: number }) => element.scrollWidth - element.clientWidth),
      ).resolves.toBeLessThanOrEqual(0);
      await page.locator('#copy-key').click();
      await messageOf(page, '#new-key').getByText('copied').waitFor();
      await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(key);
      await page.locator('#test-key').click();
      await page.locator('#test-result').getByText('GET /pets answered 200 OK').waitFor();

      const row = page.locator('#keys tbody tr', { hasText: 'browser test' });
      await row.getByText('active').waitFor();
      await expect(horizontalOverflow(page)).resolves.toBeLessThanOrEqual(0);
      await row.getByRole('button', { name: /Revoke/ }).scrollIntoViewIfNeeded();
      await expect(inViewport(row.locator('td.active'))).resolves.toBe(true);
      await expect(inViewport(row.getByRole('button', { name: /Revoke/ }))).resolves.toBe(true);
      await expect(seriousAccessibilityFindings(page)).resolves.toEqual([]);
      await shot(page, '3-key-created');

      // Shown once: neither the key nor any token is kept in the browser's storage.
      const stored = await page.evaluate<string>('JSON.stringify([{ ...sessionStorage }, { ...localStorage }])');
      expect(stored).toBe('[{},{}]');

      // The API reference, opened from the portal in a new tab, gets the key from the page itself.
      const [reference] = await Promise.all([browser.waitForEvent('page'), page.locator('#try-key').click()]);
      await reference.locator('#operations-pets-listPets').waitFor();
      await expect(reference.locator('#try-note').innerText()).resolves.toContain('The key you just created is filled in');
      await expect(reference.locator('.servers select').innerText()).resolves.toContain(api.petsBaseUrl);
      await expect(reference.evaluate('JSON.stringify(window.ui.authSelectors.authorized())')).resolves.toContain(key);
      await reference.close();

      await row.getByRole('button', { name: /Revoke/ }).click();
      const revoked = messageOf(page, '#key-list').getByText('stops working within 60 seconds');
      await revoked.waitFor();
      await expect(inViewport(revoked)).resolves.toBe(true);
      await row.getByText('revoked').waitFor();
      const refused = await page.evaluate(
        async ([url, bearer]) => (await fetch(url, { headers: { authorization: `Bearer ${bearer}` } })).status,
        [`${api.petsBaseUrl}/pets`, key] as const,
      );
      expect(refused).toBe(401);
      await shot(page, '4-key-revoked');

      // Sign-out forgets the key shown and revokes the refresh token.
      await page.locator('#create-key [name=description]').fill('second key');
      await page.locator('#create-key button').click();
      await page.locator('#new-key').waitFor();
      await page.locator('#sign-out').click();
      await page.locator('#notice').getByText('Signed out.').waitFor();
      await expect(page.locator('#new-key-value').textContent()).resolves.toBe('');
      const { clientId, endpoint } = cognitoOf();
      expect(refreshTokens).toHaveLength(1);
      const renewed = await cognitoCall(endpoint, 'InitiateAuth', {
        ClientId: clientId,
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        AuthParameters: { REFRESH_TOKEN: refreshTokens[0] },
      });
      expect(renewed.status).toBe(400);

      await signIn(page, email);
      await page.locator('#delete-account').click();
      await page.locator('#notice').getByText('Your account is deleted').waitFor();
      await page.locator('#sign-in [name=email]').fill(email);
      await page.locator('#sign-in [name=password]').fill(PASSWORD);
      await page.locator('#sign-in button').click();
      // The error stands next to the form it concerns, where the user is looking.
      const wrong = messageOf(page, '#sign-in').getByText('Incorrect email or password');
      await wrong.waitFor();
      await expect(inViewport(wrong)).resolves.toBe(true);
      await shot(page, '5-account-deleted');

      const local = [`${api.origin}/`, cognitoOf().endpoint];
      expect(requested.filter((url) => !local.some((origin) => url.startsWith(origin)))).toEqual([]);
      expect(problems).toEqual([]);
      await page.close();
    },
    120_000,
  );
});

browserTest(
  `a key created just before sign-out is never shown: its late answer is dropped, and the next person signing in on the page sees none${skipNote}`,
  async () => {
    const { page, problems } = await openPortal(VIEWPORTS.desktop);
    const first = newEmail('race-first');
    await signUpAndConfirm(page, first);
    const nextUser = await newUser({ cognito: cognitoOf() }, PASSWORD);
    await signIn(page, first);
    await page.locator('#keys').getByText('No keys yet').waitFor();

    // The create's request is held at the browser until the user has signed out, then let through.
    let reached: () => void = () => undefined;
    let release: () => void = () => undefined;
    const atBrowser = new Promise<void>((resolveReached) => (reached = resolveReached));
    const held = new Promise<void>((resolveHeld) => (release = resolveHeld));
    await page.route('**/account/keys', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      reached();
      await held;
      return route.continue();
    });
    const answered = page.waitForResponse((response) => response.request().method() === 'POST' && response.url().endsWith('/account/keys'));
    await page.locator('#create-key [name=description]').fill('created while signing out');
    await page.locator('#create-key button').click();
    await atBrowser;
    await page.locator('#sign-out').click();
    await page.locator('#notice').getByText('Signed out.').waitFor();
    release();
    const created = (await (await answered).json()) as { key: string };
    expect(created.key).toMatch(/^pst_/);

    await signIn(page, nextUser.email);
    await page.locator('#keys').getByText('No keys yet').waitFor();
    await expect(page.locator('#new-key').isHidden()).resolves.toBe(true);
    await expect(page.locator('#new-key-value').textContent()).resolves.toBe('');
    await expect(page.locator('body').innerText()).resolves.not.toContain(created.key);
    expect(problems).toEqual([]);
    await page.close();
  },
  60_000,
);

browserTest(
  `a weak password is refused on Sign up as a password-policy problem, by the page (minlength) and by the local user pool${skipNote}`,
  async () => {
    const { page, requested } = await openPortal(VIEWPORTS.phone);
    const password = page.locator('#sign-up [name=password]');
    await expect(page.locator('#password-rule').innerText()).resolves.toBe(
      'At least 12 characters, a lowercase letter, an uppercase letter, a digit.',
    );
    const email = newEmail('weak');
    await page.locator('#sign-up [name=email]').fill(email);

    await password.fill('short');
    await page.locator('#sign-up button').click();
    await expect(password.evaluate((input: { validity: { tooShort: boolean } }) => input.validity.tooShort)).resolves.toBe(true);
    expect(requested.filter((url) => url === cognitoOf().endpoint)).toEqual([]);

    // Long enough for the page, but without an uppercase letter or digit: Cognito's policy refuses it.
    await password.fill('only-lowercase-letters');
    await page.locator('#sign-up button').click();
    const refused = messageOf(page, '#sign-up');
    await refused.getByText('That password is not allowed: Password must have uppercase characters.').waitFor();
    await expect(inViewport(refused)).resolves.toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'portal-phone-weak-password.png'), fullPage: true });
    expect(cognitoOf().lastCode(email)).toBeUndefined();
    await page.close();
  },
  60_000,
);

browserTest(
  `the owner of an address takes back an unconfirmed sign-up someone else started: a new confirmation code, then a password reset${skipNote}`,
  async () => {
    const { clientId, endpoint } = cognitoOf();
    const email = newEmail('squatted');
    const squatter = 'Squatters-Password-1';
    expect((await cognitoCall(endpoint, 'SignUp', { ClientId: clientId, Username: email, Password: squatter })).status).toBe(200);
    const { page } = await openPortal(VIEWPORTS.desktop);

    await page.locator('#sign-up [name=email]').fill(email);
    await page.locator('#sign-up [name=password]').fill(PASSWORD);
    await page.locator('#sign-up button').click();
    await messageOf(page, '#sign-up').getByText('send a new confirmation code below').waitFor();

    const squattersCode = codeFor(email);
    await page.locator('#confirm [name=email]').fill(email);
    await page.locator('#resend-code').click();
    await messageOf(page, '#confirm').getByText('A new code is on its way').waitFor();
    const code = codeFor(email);
    expect(code).not.toBe(squattersCode);
    await page.locator('#confirm [name=code]').fill(code);
    await page.locator('#confirm button[type=submit]').click();
    await messageOf(page, '#forgot').getByText('Its password may not be yours').waitFor();

    await page.locator('#forgot button').click();
    await messageOf(page, '#reset').getByText('a reset code is on its way').waitFor();
    const resetCode = codeFor(email);
    expect(resetCode).not.toBe(code);
    await page.locator('#reset [name=code]').fill(resetCode);
    await page.locator('#reset [name=password]').fill('weak-password');
    await page.locator('#reset button').click();
    await messageOf(page, '#reset').getByText('That password is not allowed').waitFor();
    await page.locator('#reset [name=code]').fill(resetCode);
    await page.locator('#reset [name=password]').fill(PASSWORD);
    await page.locator('#reset button').click();
    await messageOf(page, '#sign-in').getByText('Password changed').waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'portal-desktop-password-reset.png'), fullPage: true });

    await signIn(page, email);
    const squatterSignIn = await cognitoCall(endpoint, 'InitiateAuth', {
      ClientId: clientId,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: email, PASSWORD: squatter },
    });
    expect(squatterSignIn.status).toBe(400);
    await page.close();
  },
  60_000,
);

browserTest(
  `a signed-in user stays signed in past the ${ACCESS_TOKEN_VALIDITY_MINUTES}-minute access token: the page renews it with the refresh token${skipNote}`,
  async () => {
    const { api, browser } = session();
    const page = await browser.newPage();
    // The page's clock only: it reaches the token's expiry without the test waiting for it.
    await page.clock.install();
    const bearers: string[] = [];
    page.on('request', (request) => {
      const authorization = request.headers().authorization;
      if (request.url().startsWith(`${api.origin}/account/`) && authorization) bearers.push(authorization);
    });
    await page.goto(`${api.origin}${PORTAL_PATH}/`);
    const email = newEmail('renew');
    await signUpAndConfirm(page, email);
    await signIn(page, email);
    await page.locator('#keys').getByText('No keys yet').waitFor();
    const first = bearers.at(-1);

    const renewal = page.waitForRequest((request) => request.postData()?.includes('REFRESH_TOKEN_AUTH') ?? false);
    await page.clock.fastForward(ACCESS_TOKEN_VALIDITY_MINUTES * 60_000);
    await renewal;
    await page.locator('#create-key [name=description]').fill('after renewal');
    await page.locator('#create-key button').click();
    await page.locator('#keys tbody tr', { hasText: 'after renewal' }).waitFor();
    expect(bearers.at(-1)).not.toBe(first);
    await expect(page.locator('#who').innerText()).resolves.toBe(email);
    await page.close();
  },
  60_000,
);

browserTest(
  `locally, like CloudFront in front of the bucket, the portal answers HEAD and /favicon.ico without a key, with a policy naming exactly its origins${skipNote}`,
  async () => {
    const { api } = session();
    const head = await fetch(`${api.origin}${PORTAL_PATH}/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toContain('text/html');
    expect(head.headers.get('content-security-policy')).toBe(portalSecurityPolicy([new URL(cognitoOf().endpoint).origin, api.origin]));
    for (const path of ['/favicon.ico', `${PORTAL_PATH}/favicon.ico`]) {
      const icon = await fetch(`${api.origin}${path}`);
      expect([path, icon.status, icon.headers.get('content-type')]).toEqual([path, 200, 'image/vnd.microsoft.icon']);
    }
  },
  30_000,
);
