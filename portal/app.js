/**
 * The developer portal page: sign-up, sign-in and the account's API keys. It talks to Amazon
 * Cognito's API directly (locally: cognito-local) and to the account API with the access token;
 * every address comes from config.json (written by the stack, or served by `npm start`). No
 * framework and nothing loaded from elsewhere. Tokens live in sessionStorage: this tab only, gone
 * when it closes; the strict Content-Security-Policy keeps other scripts from reading them.
 */
import { SESSION, TRY_KEY } from './app-keys.js';

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
    const type = String(answer.__type ?? answer.code ?? 'Error')
      .split('#')
      .pop();
    throw new CognitoError(type, answer.message ?? `${action} failed (${response.status})`);
  }
  return answer;
}

/** Cognito's messages are terse; say what to do instead where it helps. */
function explainCognito(error) {
  switch (error.type) {
    case 'UsernameExistsException':
      return 'An account with this email already exists: sign in instead (or confirm it, if you have not yet).';
    case 'UserNotConfirmedException':
      return 'Confirm your email first: enter the code below.';
    case 'NotAuthorizedException':
    case 'InvalidPasswordException':
    case 'UserNotFoundException':
      return error.type === 'InvalidPasswordException' && $('#sign-up').contains(document.activeElement)
        ? `That password is not allowed: ${error.message}`
        : 'Incorrect email or password.';
    case 'CodeMismatchException':
    case 'ExpiredCodeException':
      return 'That code is not valid (or has expired).';
    default:
      return error.message;
  }
}

// ---- the session ----

const session = () => JSON.parse(sessionStorage.getItem(SESSION) ?? 'null');
const keepSession = (value) => sessionStorage.setItem(SESSION, JSON.stringify(value));

function startSession(email, result, refreshToken = result.RefreshToken) {
  keepSession({ email, accessToken: result.AccessToken, refreshToken, expiresAt: Date.now() + result.ExpiresIn * 1000 });
}

async function refreshSession() {
  const current = session();
  if (!current?.refreshToken) return false;
  try {
    const { AuthenticationResult: result } = await cognito('InitiateAuth', {
      ClientId: config.clientId,
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      AuthParameters: { REFRESH_TOKEN: current.refreshToken },
    });
    startSession(current.email, result, current.refreshToken);
    return true;
  } catch {
    return false;
  }
}

function endSession() {
  sessionStorage.removeItem(SESSION);
  sessionStorage.removeItem(TRY_KEY);
}

// ---- the account API ----

/** A call with the access token; an expired token is refreshed once, a refused one ends the session. */
async function account(method, path, body) {
  const send = () =>
    fetch(`${config.accountBaseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${session()?.accessToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  let response = await send();
  if (response.status === 401 && (await refreshSession())) response = await send();
  if (response.status === 401) {
    endSession();
    show();
    throw new Error('Your sign-in has expired: sign in again.');
  }
  const answer = response.status === 204 ? undefined : await response.json();
  if (!response.ok) throw new Error(answer?.message ?? `the account API answered ${response.status}`);
  return answer;
}

// ---- what the page shows ----

function say(message) {
  $('#problem').hidden = true;
  $('#notice').textContent = message;
  $('#notice').hidden = !message;
}

function complain(message) {
  $('#notice').hidden = true;
  $('#problem').textContent = message;
  $('#problem').hidden = !message;
}

const when = (iso) => (iso ? new Date(iso).toLocaleString() : '—');

function cell(row, text, className) {
  const td = row.insertCell();
  td.textContent = text;
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
    cell(row, key.keyId);
    cell(row, key.description ?? '');
    cell(row, when(key.createdAt));
    cell(row, key.lastUsedAt ? `about ${when(key.lastUsedAt)}` : 'never');
    cell(row, key.status, key.status);
    const actions = row.insertCell();
    if (key.status === 'active') {
      const revoke = document.createElement('button');
      revoke.type = 'button';
      revoke.className = 'secondary';
      revoke.textContent = 'Revoke';
      revoke.addEventListener('click', () => void revokeKey(key.keyId, revocationDelaySeconds));
      actions.append(revoke);
    }
  }
  if (keys.length === 0) cell(body.insertRow(), 'No keys yet: create one above.').colSpan = 6;
  const active = keys.filter((key) => key.status === 'active').length;
  $('#key-count').textContent =
    `${active} of ${maxActiveKeys} active keys. A revoked key is refused within ${revocationDelaySeconds} seconds.`;
}

async function revokeKey(keyId, delaySeconds) {
  if (!confirm(`Revoke ${keyId}? Calls with it are refused within ${delaySeconds} seconds.`)) return;
  try {
    await account('DELETE', `/account/keys/${encodeURIComponent(keyId)}`);
    say(`Revoked ${keyId}: it stops working within ${delaySeconds} seconds (the API caches key checks that long).`);
    await listKeys();
  } catch (error) {
    complain(error.message);
  }
}

function showNewKey(created) {
  $('#new-key').hidden = false;
  $('#new-key-value').textContent = created.key;
  $('#new-key-curl').textContent = `curl -H 'Authorization: Bearer ${created.key}' ${config.petsBaseUrl}/pets`;
  $('#test-result').textContent = '';
  sessionStorage.setItem(TRY_KEY, created.key);
}

function show() {
  const current = session();
  $('#signed-out').hidden = Boolean(current);
  $('#account').hidden = !current;
  if (!current) return;
  $('#who').textContent = current.email;
  listKeys().catch((error) => complain(error.message));
}

// ---- what the user does ----

function handle(form, action) {
  $(form).addEventListener('submit', (event) => {
    event.preventDefault();
    const button = event.target.querySelector('button[type=submit]');
    button.disabled = true;
    complain('');
    action(Object.fromEntries(new FormData(event.target)))
      .catch((error) => complain(error instanceof CognitoError ? explainCognito(error) : error.message))
      .finally(() => (button.disabled = false));
  });
}

handle('#sign-up', async ({ email, password }) => {
  await cognito('SignUp', {
    ClientId: config.clientId,
    Username: email,
    Password: password,
    UserAttributes: [{ Name: 'email', Value: email }],
  });
  $('#confirm [name=email]').value = email;
  $('#sign-in [name=email]').value = email;
  $('#confirm [name=code]').focus();
  say(
    config.local
      ? `Account created. Enter the confirmation code printed in the terminal running npm start.`
      : `Account created. We sent a confirmation code to ${email}.`,
  );
});

handle('#confirm', async ({ email, code }) => {
  await cognito('ConfirmSignUp', { ClientId: config.clientId, Username: email, ConfirmationCode: code.trim() });
  $('#sign-in [name=email]').value = email;
  $('#sign-in [name=password]').focus();
  say('Email confirmed: sign in.');
});

handle('#sign-in', async ({ email, password }) => {
  const answer = await cognito('InitiateAuth', {
    ClientId: config.clientId,
    AuthFlow: 'USER_PASSWORD_AUTH',
    AuthParameters: { USERNAME: email, PASSWORD: password },
  });
  if (!answer.AuthenticationResult) throw new Error(`Sign-in needs a step this portal does not support (${answer.ChallengeName}).`);
  startSession(email, answer.AuthenticationResult);
  say('');
  show();
});

handle('#create-key', async ({ description }) => {
  const created = await account('POST', '/account/keys', { description });
  $('#create-key').reset();
  showNewKey(created);
  say(`Created ${created.keyId}.`);
  await listKeys();
});

$('#copy-key').addEventListener('click', () => {
  const key = $('#new-key-value').textContent;
  navigator.clipboard.writeText(key).then(
    () => say('Key copied to the clipboard.'),
    () => {
      getSelection().selectAllChildren($('#new-key-value'));
      say('Select the key and copy it (the clipboard is not available here).');
    },
  );
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
  const refreshToken = session()?.refreshToken;
  endSession();
  $('#new-key').hidden = true;
  show();
  say('Signed out.');
  // Revokes the refresh token (and the tokens issued with it); best effort, the session is already gone here.
  if (refreshToken) await cognito('RevokeToken', { ClientId: config.clientId, Token: refreshToken }).catch(() => undefined);
});

$('#delete-account').addEventListener('click', async () => {
  if (!confirm('Delete your account? Every key is revoked and you can no longer sign in.')) return;
  try {
    await account('DELETE', '/account');
    endSession();
    $('#new-key').hidden = true;
    show();
    say('Your account is deleted and its keys are revoked.');
  } catch (error) {
    complain(error.message);
  }
});

// ---- start ----

const rule = config.passwordPolicy;
$('#password-rule').textContent =
  `At least ${rule.minLength} characters` +
  [
    rule.requireLowercase && 'a lowercase letter',
    rule.requireUppercase && 'an uppercase letter',
    rule.requireDigits && 'a digit',
    rule.requireSymbols && 'a symbol',
  ]
    .filter(Boolean)
    .map((part) => `, ${part}`)
    .join('') +
  '.';
$('#code-hint').textContent = config.local
  ? 'Running locally: no email is sent. The code is printed in the terminal running npm start ("Confirmation code for …").'
  : 'We email you a 6-digit code when you sign up.';
$('#stage').textContent = config.local ? 'local' : `stage: ${config.stage}`;
show();
