/** The account API's client, for a signed-in user with their Cognito access token: API keys and the account. */
import createClient, { type Client } from 'openapi-fetch';
import { baseUrl } from './base-url.ts';
import { checkBearerCredential, resolveTransport, type CallOptions, type Transport, type TransportOptions } from './client-options.ts';
import type { paths as AccountPaths } from './generated/account.ts';
import type { OperationId } from './operations.ts';
import type { RetryRule } from './retry-policy.ts';
import type { AccountKey, AccountKeyList, CreatedAccountKey } from './schemas.ts';
import { send, type Outcome } from './send.ts';

/** A user's access token, or a function that gives a current one (called once per call: tokens last 5 minutes). */
export type AccessTokenSource = string | (() => string | Promise<string>);

export interface AccountClientOptions extends TransportOptions {
  /** The account API's base URL: the stack output `AccountBaseUrl` (locally `http://127.0.0.1:3000`). */
  readonly accountBaseUrl: string;
  /** The access token of the user's sign-in to the stage's user pool with the portal's app client: not the ID token. */
  readonly accessToken: AccessTokenSource;
}

/**
 * Calls the account API for one signed-in user, retried like `PetStoreClient`'s calls but for `createKey`. A token
 * the gateway refuses (missing, expired, of another app client) fails as a `GatewayError` with status 401.
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
    this.#account = createClient<AccountPaths>({
      baseUrl: baseUrl('accountBaseUrl', options.accountBaseUrl),
      fetch: this.#transport.fetch,
    });
  }

  /** The user's keys, active and recently revoked, newest first, with the account's limits (`GET /account/keys`). */
  listKeys(options: CallOptions = {}): Promise<AccountKeyList> {
    return this.#send('listAccountKeys', 'transient', options, (headers, signal) =>
      this.#account.GET('/account/keys', { headers, signal }),
    );
  }

  /**
   * Creates an API key (`POST /account/keys`) and answers it, `key`, this once: only its hash is stored. Retried
   * only after API Gateway's 429: the service does not honour `Idempotency-Key`, so after another failure a key
   * may have been created (`listKeys()` shows it, without its `key`).
   * @throws `isServiceError(error, 'createAccountKey')`: `key_limit_reached` (409), `daily_key_limit_reached` (429,
   * not retried; `retryAfterSeconds` says when the next day starts).
   */
  createKey(description: string, options: CallOptions = {}): Promise<CreatedAccountKey> {
    return this.#send('createAccountKey', 'throttled', options, (headers, signal) =>
      this.#account.POST('/account/keys', { body: { description }, headers, signal }),
    );
  }

  /**
   * Revokes one of the user's keys (`DELETE /account/keys/{keyId}`): the APIs refuse it within `revocationDelaySeconds`
   * (60). Revoking a revoked key answers it again; an unknown one fails with `not_found`.
   */
  revokeKey(keyId: string, options: CallOptions = {}): Promise<AccountKey> {
    return this.#send('revokeAccountKey', 'transient', options, (headers, signal) =>
      this.#account.DELETE('/account/keys/{keyId}', { params: { path: { keyId } }, headers, signal }),
    );
  }

  /** Revokes every key of the account, then deletes the user (`DELETE /account`); safe to repeat if it failed part-way. */
  async deleteAccount(options: CallOptions = {}): Promise<void> {
    await this.#send('deleteAccount', 'transient', options, (headers, signal) => this.#account.DELETE('/account', { headers, signal }));
  }

  async #send<T>(
    operation: OperationId,
    rule: RetryRule,
    options: CallOptions,
    attempt: (headers: { Authorization: string }, signal: AbortSignal) => Promise<Outcome<T>>,
  ): Promise<T> {
    // Once per call, before any request: a token source that fails fails the call as it is, never retried.
    const headers = { Authorization: `Bearer ${checkAccessToken(await this.#accessToken())}` };
    return (await send(operation, (signal) => attempt(headers, signal), { ...this.#transport, rule, signal: options.signal })).data;
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
