import { accountKeyAnswer } from '#auth/key-record';
import { MAX_ACTIVE_KEYS_PER_ACCOUNT } from '#contract/account-limits';
import { AUTH_CACHE_TTL_MS } from '#auth/settings';
import { accountOf } from '#auth/require-account';
import { httpHandler } from '#http/http-handler';
import { jsonResponse } from '#http/responses';
import { LIST_ACCOUNT_KEYS } from '#contract/operations/list-account-keys';
import { apiKeys } from '#data/stores/api-keys';
import type { AccountKeyList } from '#contract/schemas/account-key-response';

/** GET /account/keys — the signed-in account's active keys and recently revoked ones, newest first, with its limits. */
// Reads only: the account index of the API-keys table (the cap's accounts table is for writers).
const keys = apiKeys();

export const handler = httpHandler(LIST_ACCOUNT_KEYS, accountOf, async ({ caller }) => {
  const records = await keys.listedForAccount(caller.accountId, new Date());
  const answer: AccountKeyList = {
    keys: records.map(accountKeyAnswer),
    maxActiveKeys: MAX_ACTIVE_KEYS_PER_ACCOUNT,
    revocationDelaySeconds: AUTH_CACHE_TTL_MS / 1000,
  };
  return jsonResponse(200, answer);
});
