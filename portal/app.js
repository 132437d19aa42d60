/**
 * The developer portal page: sign-up, sign-in, password reset and API keys, through Cognito's API and the account
 * API at the addresses in config.json. Nothing is stored in the browser: the tokens live in this page's memory and
 * a new key only in the DOM (docs/portal.md says why); the API reference asks this page for them.
 */
const $ = (selector) => document.querySelector(selector);
const config = await (await fetch('config.json', { cache: 'no-store' })).json();

// ---- Cognito's API (JSON 1.1 over HTTPS; CORS-enabled), as the AWS SDK would call it ----

class CognitoError extends Error {
  constructor(type, message) {
    super(message);
    this.type = type;
  }
}

async function cognito(action, body) {
  const response = await fetch(config.cognitoEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${action}` },
    body: JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    const type = String(answer.__type ?? answer.code ?? 'Error').replace(/^.*#/, '');
    throw new CognitoError(type, answer.message ?? `${action} failed (${response.status})`);
  }
  return answer;
}

const INVALID_CODE = 'That code is not valid (or has expired): check it, or ask for a new one.';

/** Cognito's terse messages as what to do, by form: one error type is a wrong password on Sign in, a refused one on Sign up. */
function explainCognito(error, form) {
  const choosesPassword = form === 'sign-up' || form === 'reset';
  switch (error.type) {
    case 'InvalidPasswordException':
      return choosesPassword
        ? `That password is not allowed: ${error.message.replace(/^Password did not conform with policy:\s*/, '')}.`
        : 'Incorrect email or password.';
    case 'NotAuthorizedException':
    case 'UserNotFoundException':
      if (form === 'sign-in') return 'Incorrect email or password.';
      return form === 'confirm' || form === 'reset' ? INVALID_CODE : error.message;
    case 'CodeMismatchException':
    case 'ExpiredCodeException':
      return INVALID_CODE;
    case 'UsernameExistsException':
      return 'An account with this email already exists: sign in. If its sign-up was never confirmed, send a new confirmation code below.';
    case 'UserNotConfirmedException':
      return 'Confirm your email first: enter the code we sent (or send a new one) below.';
    case 'PasswordResetRequiredException':
      return 'Choose a new password first: ask for a reset code below.';
    case 'LimitExceededException':
    case 'TooManyRequestsException':
    case 'TooManyFailedAttemptsException':
      return 'Too many attempts: wait a few minutes, then try again.';
    case 'InvalidParameterException':
      if (form === 'resend' && /confirmed/i.test(error.message))
        return 'This email is already confirmed: sign in, or reset its password below.';
      if (form === 'forgot' && /verified/i.test(error.message))
        return 'This email is not confirmed yet: confirm it with a new code first (above), then reset the password.';
      if (choosesPassword && /password/i.test(error.message)) return 'That password is not allowed: it may not start or end with a space.';
      return error.message;
    default:
      return error.message;
  }
}

// ---- the session, in memory only ----

/** `{ email, accessToken, refreshToken, expiresAt }` while signed in. */
let session;
/** An answer to a call made before the last sign-out is nobody's to show. */
let sessionsEnded = 0;
let refreshTimer;
let refreshing;
/** Renew this long before the access token expires (half its lifetime when that is shorter). */
const RENEW_BEFORE_MS = 60_000;

const expiryOf = (jwt) => JSON.parse(window.atob(jwt.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))).exp * 1000;

function startSession(email, result, refreshToken = result.RefreshToken) {
  // The token's own expiry: cognito-local sends no ExpiresIn.
  session = { email, accessToken: result.AccessToken, refreshToken, expiresAt: expiryOf(result.AccessToken) };
  window.clearTimeout(refreshTimer);
  const lifetime = session.expiresAt - Date.now();
  refreshTimer = window.setTimeout(() => void accessToken(true).catch(() => undefined), lifetime - Math.min(RENEW_BEFORE_MS, lifetime / 2));
}

/** The current access token, renewed first when it is about to expire (or `renew`); concurrent callers share one renewal. */
async function accessToken(renew = false) {
  if (!session) throw new SessionOver();
  if (!renew && session.expiresAt - Date.now() > RENEW_BEFORE_MS / 2) return session.accessToken;
  refreshing ??= renewSession(session).finally(() => (refreshing = undefined));
  return refreshing;
}

async function renewSession(current) {
  let result;
  try {
    ({ AuthenticationResult: result } = await cognito('InitiateAuth', {
      ClientId: config.clientId,
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      AuthParameters: { REFRESH_TOKEN: current.refreshToken },
    }));
  } catch (error) {
    // Refused (revoked or expired): the sign-in is over. A network failure leaves it for the next try.
    if (error instanceof CognitoError && session === current) expire();
    throw error instanceof CognitoError ? new SessionOver() : error;
  }
  if (session !== current) throw new SessionOver();
  startSession(current.email, result, current.refreshToken);
  return session.accessToken;
}

/** The session ended; the page already says so where the user looks. */
class SessionOver extends Error {
  constructor() {
    super('Your sign-in has ended: sign in again.');
  }
}

/** Forgets the session and what it showed, and says `notice` on the signed-out page. */
function endSession(notice = '', kind = 'ok') {
  sessionsEnded++;
  window.clearTimeout(refreshTimer);
  session = undefined;
  showNewKey();
  $('#keys tbody').replaceChildren();
  for (const message of document.querySelectorAll('#account .message')) report(message, '');
  show();
  report($('#notice'), notice, kind);
}

const expire = () => endSession('Your sign-in has ended: sign in again.', 'problem');

// ---- the account API ----

/** A call with the access token, renewed once if refused; an answer that arrives after the session ended is dropped. */
async function account(method, path, body) {
  const calledIn = sessionsEnded;
  const send = (token) =>
    fetch(`${config.accountBaseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body && { 'content-type': 'application/json' }) },
      body: body && JSON.stringify(body),
    });
  let response = await send(await accessToken());
  // Never retried with the token of whoever signed in since.
  if (response.status === 401 && calledIn === sessionsEnded) response = await send(await accessToken(true));
  const answer = response.status === 204 ? undefined : await response.json();
  if (calledIn !== sessionsEnded) throw new SessionOver();
  if (response.status === 401) {
    expire();
    throw new SessionOver();
  }
  if (!response.ok) throw new Error(answer?.message ?? `the account API answered ${response.status}`);
  return answer;
}

// ---- what the page shows ----

/** A message in `place` (a `.message` element, or the form or panel holding one), kept in view. */
function report(place, message, kind = 'ok') {
  const element = place.classList.contains('message') ? place : place.querySelector(':scope > .message');
  element.textContent = message;
  element.classList.toggle('problem', kind === 'problem');
  if (message) element.scrollIntoView({ block: 'nearest' });
}

const when = (iso) => (iso ? new Date(iso).toLocaleString() : '—');
const COLUMNS = [...document.querySelectorAll('#keys thead th')].map((th) => th.textContent.trim());

function cell(row, text, className) {
  const td = row.insertCell();
  td.textContent = text;
  // Narrow screens show each row as a card, labelled from these.
  td.dataset.label = COLUMNS[td.cellIndex] ?? '';
  if (className) td.className = className;
  return td;
}

async function listKeys() {
  const { keys, maxActiveKeys, revocationDelaySeconds } = await account('GET', '/account/keys');
  const body = $('#keys tbody');
  body.replaceChildren();
  for (const key of keys) {
    const row = body.insertRow();
    row.dataset.keyId = key.keyId;
    cell(row, key.keyId, 'key-id');
    cell(row, key.description ?? '');
    cell(row, when(key.createdAt));
    cell(row, key.lastUsedAt ? `about ${when(key.lastUsedAt)}` : 'never');
    cell(row, key.status, key.status);
    const actions = cell(row, '', 'actions');
    if (key.status === 'active') {
      const revoke = document.createElement('button');
      revoke.type = 'button';
      revoke.className = 'secondary';
      revoke.textContent = 'Revoke';
      revoke.setAttribute('aria-label', `Revoke ${key.keyId}`);
      revoke.addEventListener('click', () => void revokeKey(key.keyId, revocationDelaySeconds));
      actions.append(revoke);
    }
  }
  if (keys.length === 0) cell(body.insertRow(), 'No keys yet: create one above.', 'empty').colSpan = 6;
  const active = keys.filter((key) => key.status === 'active').length;
  $('#key-count').textContent =
    `${active} of ${maxActiveKeys} active keys. A revoked key is refused within ${revocationDelaySeconds} seconds.`;
}

/** Reports a failed account call in `place`; a session that ended says so already. */
const failedIn = (place) => (error) => {
  if (!(error instanceof SessionOver)) report($(place), error.message, 'problem');
};

async function revokeKey(keyId, delaySeconds) {
  if (!confirm(`Revoke ${keyId}? Calls with it are refused within ${delaySeconds} seconds.`)) return;
  await account('DELETE', `/account/keys/${encodeURIComponent(keyId)}`)
    .then(listKeys)
    .then(() =>
      report($('#key-list'), `Revoked ${keyId}: it stops working within ${delaySeconds} seconds (the API caches key checks that long).`),
    )
    .catch(failedIn('#key-list'));
}

/** Shows a key just created, or with none forgets the one shown. */
function showNewKey(key = '') {
  $('#new-key').hidden = !key;
  $('#new-key-value').textContent = key;
  $('#new-key-curl').textContent = key && `curl -H 'Authorization: Bearer ${key}' ${config.petsBaseUrl}/pets`;
  $('#test-result').textContent = '';
  if (!key) report($('#new-key'), '');
}

function show() {
  $('#signed-out').hidden = Boolean(session);
  $('#account').hidden = !session;
  if (!session) return;
  $('#who').textContent = session.email;
  listKeys().catch(failedIn('#key-list'));
}

// ---- what the user does ----

/** Runs `action` on submit; its errors are reported in the form itself, explained for that form. */
function handle(form, action) {
  $(form).addEventListener('submit', (event) => {
    event.preventDefault();
    const target = event.target;
    const button = target.querySelector('button[type=submit]');
    button.disabled = true;
    report(target, '');
    action(Object.fromEntries(new FormData(target)))
      .then(() => {
        // Earlier complaints elsewhere are settled by this step (or no longer the point).
        for (const problem of document.querySelectorAll('.message.problem')) report(problem, '');
      })
      .catch((error) => {
        if (error instanceof SessionOver) return;
        report(target, error instanceof CognitoError ? explainCognito(error, target.id) : error.message, 'problem');
      })
      .finally(() => (button.disabled = false));
  });
}

const codeWhere = (what, email) =>
  config.local ? `The ${what} is printed in the terminal running npm start.` : `We sent the ${what} to ${email}.`;
/** The address whose confirmation code was sent again: its password may be someone else's choice. */
let reclaiming;

handle('#sign-up', async ({ email, password }) => {
  await cognito('SignUp', {
    ClientId: config.clientId,
    Username: email,
    Password: password,
    UserAttributes: [{ Name: 'email', Value: email }],
  });
  $('#confirm [name=email]').value = email;
  $('#sign-in [name=email]').value = email;
  report($('#sign-up'), 'Account created.');
  report($('#confirm'), `Account created: enter the confirmation code. ${codeWhere('code', email)}`);
  $('#confirm [name=code]').focus();
});

handle('#confirm', async ({ email, code }) => {
  await cognito('ConfirmSignUp', { ClientId: config.clientId, Username: email, ConfirmationCode: code.trim() });
  $('#confirm').reset();
  if (reclaiming === email) {
    $('#reset [name=email]').value = email;
    $('#forgot [name=email]').value = email;
    report($('#forgot'), 'Email confirmed. Its password may not be yours: ask for a reset code and choose your own.');
    return;
  }
  $('#sign-in [name=email]').value = email;
  report($('#sign-in'), 'Email confirmed: sign in.');
  $('#sign-in [name=password]').focus();
});

$('#resend-code').addEventListener('click', async () => {
  const form = $('#confirm');
  const email = form.querySelector('[name=email]');
  if (!email.reportValidity()) return;
  report(form, '');
  try {
    await cognito('ResendConfirmationCode', { ClientId: config.clientId, Username: email.value });
    reclaiming = email.value;
    report(form, `A new code is on its way. ${codeWhere('code', email.value)}`);
    form.querySelector('[name=code]').focus();
  } catch (error) {
    report(form, error instanceof CognitoError ? explainCognito(error, 'resend') : error.message, 'problem');
  }
});

handle('#forgot', async ({ email }) => {
  await cognito('ForgotPassword', { ClientId: config.clientId, Username: email });
  $('#reset [name=email]').value = email;
  // Cognito answers the same whether or not the address has an account.
  report($('#reset'), `If ${email} has an account, a reset code is on its way. ${codeWhere('reset code', email)}`);
  $('#reset [name=code]').focus();
});

handle('#reset', async ({ email, code, password }) => {
  await cognito('ConfirmForgotPassword', { ClientId: config.clientId, Username: email, ConfirmationCode: code.trim(), Password: password });
  $('#reset').reset();
  reclaiming = undefined;
  $('#sign-in [name=email]').value = email;
  report($('#sign-in'), 'Password changed: sign in with the new one.');
  $('#sign-in [name=password]').focus();
});

handle('#sign-in', async ({ email, password }) => {
  const answer = await cognito('InitiateAuth', {
    ClientId: config.clientId,
    AuthFlow: 'USER_PASSWORD_AUTH',
    AuthParameters: { USERNAME: email, PASSWORD: password },
  });
  if (!answer.AuthenticationResult) throw new Error(`Sign-in needs a step this portal does not support (${answer.ChallengeName}).`);
  startSession(email, answer.AuthenticationResult);
  $('#sign-in').reset();
  for (const message of document.querySelectorAll('#signed-out .message, #notice')) report(message, '');
  show();
});

handle('#create-key', async ({ description }) => {
  const created = await account('POST', '/account/keys', { description });
  $('#create-key').reset();
  showNewKey(created.key);
  report($('#create-key'), `Created ${created.keyId}.`);
  await listKeys();
  $('#new-key').scrollIntoView({ block: 'nearest' });
});

$('#copy-key').addEventListener('click', () => {
  const key = $('#new-key-value').textContent;
  navigator.clipboard.writeText(key).then(
    () => report($('#new-key'), 'Key copied to the clipboard.'),
    () => {
      getSelection().selectAllChildren($('#new-key-value'));
      report($('#new-key'), 'Select the key and copy it (the clipboard is not available here).');
    },
  );
});

$('#dismiss-key').addEventListener('click', () => {
  showNewKey();
  report($('#create-key'), 'The key is no longer shown.');
});

$('#test-key').addEventListener('click', async () => {
  const response = await fetch(`${config.petsBaseUrl}/pets?limit=1`, {
    headers: { authorization: `Bearer ${$('#new-key-value').textContent}` },
  }).catch(() => undefined);
  $('#test-result').textContent = response
    ? `GET /pets answered ${response.status} ${response.ok ? 'OK' : (await response.json()).message}`
    : 'the call failed';
});

$('#sign-out').addEventListener('click', async () => {
  const refreshToken = session?.refreshToken;
  endSession();
  // Revokes the refresh token and the tokens issued with it, so it can get no new ones.
  const revoked =
    !refreshToken ||
    (await cognito('RevokeToken', { ClientId: config.clientId, Token: refreshToken }).then(
      () => true,
      () => false,
    ));
  report(
    $('#notice'),
    revoked ? 'Signed out.' : 'Signed out on this page, but Cognito could not be told: the sign-in ends by itself within a day.',
    revoked ? 'ok' : 'problem',
  );
});

$('#delete-account').addEventListener('click', async () => {
  if (!confirm('Delete your account? Every key is revoked and you can no longer sign in.')) return;
  await account('DELETE', '/account').then(() => endSession('Your account is deleted and its keys are revoked.'), failedIn('#delete'));
});

// The API reference page (opened from here, so `window.opener` is this page) asks for these.
window.petstorePortal = {
  apiKey: () => $('#new-key-value').textContent || undefined,
  accessToken: () => (session ? accessToken() : Promise.resolve(undefined)),
};

// ---- start ----

const rule = config.passwordPolicy;
const ruleText = [
  `At least ${rule.minLength} characters`,
  rule.requireLowercase && 'a lowercase letter',
  rule.requireUppercase && 'an uppercase letter',
  rule.requireDigits && 'a digit',
  rule.requireSymbols && 'a symbol',
].filter(Boolean);
for (const hint of [$('#password-rule'), $('#reset-rule')]) hint.textContent = `${ruleText.join(', ')}.`;
for (const input of document.querySelectorAll('input[data-new-password]')) input.minLength = rule.minLength;
$('#code-hint').textContent = config.local
  ? 'Running locally: no email is sent. Codes are printed in the terminal running npm start ("Confirmation code for …").'
  : 'We email you a 6-digit code when you sign up.';
$('#stage').textContent = config.local ? 'local' : `stage: ${config.stage}`;
show();
