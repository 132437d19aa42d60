/**
 * Users of the local user pool (cognito-local), made the way the portal page makes them: Cognito's
 * JSON API over HTTP (SignUp, ConfirmSignUp with the code the emulator "sent", InitiateAuth).
 */
import { SignJWT, importJWK, generateKeyPair, type JWTPayload } from 'jose';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { MAX_ACTIVE_KEYS_PER_ACCOUNT } from '#contract/account-limits';
import type { LocalAccounts } from '#local/identity/accounts';

export interface SignedIn {
  readonly email: string;
  readonly password: string;
  readonly sub: string;
  readonly accessToken: string;
  readonly idToken: string;
  readonly refreshToken: string;
}

export async function cognitoCall(
  endpoint: string,
  action: string,
  body: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${action}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

let users = 0;

/** A new confirmed user, signed in. */
export async function newUser(accounts: Pick<LocalAccounts, 'cognito'>, password = 'Correct-Horse-42'): Promise<SignedIn> {
  const { endpoint, clientId } = accounts.cognito;
  const email = `user${process.pid}-${users++}@example.com`;
  const signedUp = await cognitoCall(endpoint, 'SignUp', { ClientId: clientId, Username: email, Password: password });
  if (signedUp.status !== 200) throw new Error(`SignUp: ${JSON.stringify(signedUp.json)}`);
  const code = accounts.cognito.lastCode(email);
  await cognitoCall(endpoint, 'ConfirmSignUp', { ClientId: clientId, Username: email, ConfirmationCode: code });
  return { ...(await signIn(accounts, email, password)), email, password, sub: String(signedUp.json.UserSub) };
}

export async function signIn(
  accounts: Pick<LocalAccounts, 'cognito'>,
  email: string,
  password: string,
  clientId = accounts.cognito.clientId,
): Promise<Pick<SignedIn, 'accessToken' | 'idToken' | 'refreshToken'>> {
  const answer = await cognitoCall(accounts.cognito.endpoint, 'InitiateAuth', {
    ClientId: clientId,
    AuthFlow: 'USER_PASSWORD_AUTH',
    AuthParameters: { USERNAME: email, PASSWORD: password },
  });
  const result = answer.json.AuthenticationResult as { AccessToken: string; IdToken: string; RefreshToken: string } | undefined;
  if (!result) throw new Error(`InitiateAuth: ${answer.status} ${JSON.stringify(answer.json)}`);
  return { accessToken: result.AccessToken, idToken: result.IdToken, refreshToken: result.RefreshToken };
}

const EMULATOR_KEY = resolve(__dirname, '../../node_modules/cognito-local/lib/keys/cognitoLocal.private.json');

/**
 * A token signed with the emulator's own (public, fixed) key: valid signature, claims as given. How
 * the tests make an expired token without waiting an hour.
 */
export async function tokenSignedByEmulator(claims: JWTPayload, expiresAt: number): Promise<string> {
  const { jwk } = JSON.parse(readFileSync(EMULATOR_KEY, 'utf8')) as { jwk: Record<string, string> };
  const key = await importJWK(jwk, 'RS256');
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'CognitoLocal' }).setExpirationTime(expiresAt).sign(key);
}

/** The same claims, signed by a key the user pool never had (a forgery). */
export async function forgedToken(claims: JWTPayload, expiresAt: number): Promise<string> {
  const { privateKey } = await generateKeyPair('RS256');
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'CognitoLocal' }).setExpirationTime(expiresAt).sign(privateKey);
}

export const claimsOf = (token: string): JWTPayload =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as JWTPayload;

/**
 * A key as `POST /account/keys` answers it (the key shown this once) and the listing right after, which names it
 * without the key: the same through the HTTP API and through the SDK's AccountClient.
 */
export function expectKeyCreatedThenListed(created: { keyId: string; createdAt: string }, listed: unknown, description: string): void {
  expect(created).toEqual({
    key: expect.stringMatching(/^pst_/),
    keyId: expect.stringMatching(/^key_/),
    description,
    status: 'active',
    createdAt: expect.any(String),
  });
  expect(listed).toEqual({
    keys: [{ keyId: created.keyId, description, status: 'active', createdAt: created.createdAt }],
    maxActiveKeys: MAX_ACTIVE_KEYS_PER_ACCOUNT,
    revocationDelaySeconds: 60,
  });
}
