/**
 * The client of the developer portal's account API, called for a signed-in user with their Cognito access token
 * (not an API key): list, create and revoke the user's API keys, and delete the account.
 */
import createClient, { type Client } from 'openapi-fetch';
import { accountBaseUrl } from './base-url.ts';
import { checkBearerCredential, resolveTransport, type CallOptions, type Transport, type TransportOptions } from './client-options.ts';
import type { paths as AccountPaths } from './generated/account.ts';
import type { OperationId } from './operations.ts';
import type { RetryRule } from './retry-policy.ts';
import type { AccountKey, AccountKeyList, CreatedAccountKey } from './schemas.ts';
import { send, type Outcome, type Success } from './send.ts';

/** A user's access token, or a function that gives a current one (called once per call: tokens last 5 minutes). */
export type AccessTokenSource = string | (() => string | Promise<string>);

export interface AccountClientOptions extends TransportOptions {
  /** The account API's base URL: the stack output `AccountBaseUrl` (locally `http://127.0.0.1:3000`). */
  readonly accountBaseUrl: string;
  /**
   * The access token Cognito issued when the user signed in to the stage's user pool with the portal's app client
   * (`InitiateAuth`, `USER_PASSWORD_AUTH`). Not an API key, and not the ID token.
   */
  readonly accessToken: AccessTokenSource;
}

/**
 * Calls the account API for one signed-in user.
 *
 * Reads, revocations and the account's deletion are retried like `PetStoreClient`'s calls: repeating them is
 * harmless. `createKey` is not: the account API does not honour `Idempotency-Key`, so it is retried only after
 * API Gateway's 429, which the gateway answers before any function runs.
 *
 * A token the gateway refuses (missing, expired, of another app client) fails as a `GatewayError` with status 401.
 */
export class AccountClient {
  readonly #account: Client<AccountPaths>;
  readonly #transport: Transport;
  readonly #accessToken: () => string | Promise<string>;

  /** @throws TypeError when the base URL, a literal token or an option is not valid. */
  constructor(options: AccountClientOptions) {
    this.#transport = resolveTransport(options);
    const { accessToken } = options;
    if (typeof accessToken === 'string') checkAccessToken(accessToken);
    this.#accessToken = typeof accessToken === 'string' ? () => accessToken : accessToken;
    this.#account = createClient<AccountPaths>({ baseUrl: accountBaseUrl(options.accountBaseUrl), fetch: this.#transport.fetch });
  }

  /**
   * The user's keys, active and recently revoked, newest first, with the account's limits (`GET /account/keys`).
   * A key created a moment ago may take a second to appear.
   * @throws `isServiceError(error, 'listAccountKeys')` narrows its code.
   */
  async listKeys(options: CallOptions = {}): Promise<AccountKeyList> {
    const { data } = await this.#send('listAccountKeys', 'transient', options, (headers, signal) =>
      this.#account.GET('/account/keys', { headers, signal }),
    );
    return data;
  }

  /**
   * Creates an API key for the pets and messages APIs (`POST /account/keys`) and answers it, `key`, this once:
   * only its hash is stored.
   *
   * Not retried after a network failure, a timeout or a 503, since the request may have reached the service,
   * which does not honour `Idempotency-Key`: a retry could create a second key. Only API Gateway's 429 is retried.
   * After such a failure, `listKeys()` shows whether a key was created (without its `key`): revoke it and create
   * another.
   * @throws `isServiceError(error, 'createAccountKey')` narrows its code: `key_limit_reached` (409) when the
   * account holds as many active keys as it may, `daily_key_limit_reached` (429, not retried) when it created as
   * many today as it may (`retryAfterSeconds` says when the next day starts).
   */
  async createKey(description: string, options: CallOptions = {}): Promise<CreatedAccountKey> {
    const { data } = await this.#send('createAccountKey', 'throttled', options, (headers, signal) =>
      this.#account.POST('/account/keys', { body: { description }, headers, signal }),
    );
    return data;
  }

  /**
   * Revokes one of the user's keys (`DELETE /account/keys/{keyId}`); the pets and messages APIs refuse it within
   * the answer list's `revocationDelaySeconds` (60). Revoking a revoked key answers it again.
   * @throws `isServiceError(error, 'revokeAccountKey')` narrows its code; `not_found` when the account has no such key.
   */
  async revokeKey(keyId: string, options: CallOptions = {}): Promise<AccountKey> {
    const { data } = await this.#send('revokeAccountKey', 'transient', options, (headers, signal) =>
      this.#account.DELETE('/account/keys/{keyId}', { params: { path: { keyId } }, headers, signal }),
    );
    return data;
  }

  /**
   * Revokes every key of the account, then deletes the user (`DELETE /account`): signing in no longer works.
   * Safe to repeat if it failed part-way.
   * @throws `isServiceError(error, 'deleteAccount')` narrows its code.
   */
  async deleteAccount(options: CallOptions = {}): Promise<void> {
    await this.#send('deleteAccount', 'transient', options, (headers, signal) => this.#account.DELETE('/account', { headers, signal }));
  }

  async #send<T>(
    operation: OperationId,
    rule: RetryRule,
    options: CallOptions,
    attempt: (headers: { Authorization: string }, signal: AbortSignal) => Promise<Outcome<T>>,
  ): Promise<Success<T>> {
    // Once per call, before any request: a token source that fails fails the call as it is, never retried.
    const headers = { Authorization: `Bearer ${checkAccessToken(await this.#accessToken())}` };
    return send(operation, (signal) => attempt(headers, signal), {
      timeoutMs: this.#transport.timeoutMs,
      retry: this.#transport.retry,
      rule,
      signal: options.signal,
    });
  }
}

/** An API key in the token's place is the likely mix-up: say so, rather than let the gateway answer 401. */
function checkAccessToken(token: string): string {
  if (token.startsWith('pst_'))
    throw new TypeError(
      "accessToken is an API key (pst_…): the account API takes the user's Cognito access token; API keys go to PetStoreClient",
    );
  return checkBearerCredential('accessToken', token);
}
