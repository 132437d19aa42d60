import { accountKeyAnswer } from '#auth/key-record';
import { MAX_ACTIVE_KEYS_PER_ACCOUNT, MAX_KEYS_CREATED_PER_DAY } from '#contract/account-limits';
import { ApiError, unauthorized } from '#contract/errors';
import { accountOf } from '#auth/require-account';
import { httpHandler } from '#http/http-handler';
import { jsonResponse } from '#http/responses';
import { CREATE_ACCOUNT_KEY } from '#contract/operations/create-account-key';
import type { CreatedAccountKey } from '#contract/schemas/account-key-response';
import { accountKeys } from '#data/stores/account-keys';
import { count } from '#runtime/metrics';

const keys = accountKeys();

const secondsToNextUtcDay = (now: Date): number =>
  Math.ceil((Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime()) / 1000);

/** POST /account/keys — 201 with the new key, shown this once; 409 at the cap on active keys, 429 past the day's creates. */
export const handler = httpHandler(CREATE_ACCOUNT_KEY, accountOf, async ({ caller, body }) => {
  const created = await keys.create(caller.accountId, body.description, new Date());
  if (created === 'closed') {
    throw unauthorized('this account has been deleted');
  }
  if (created === 'limit_reached') {
    throw new ApiError(
      409,
      'key_limit_reached',
      `this account already has ${MAX_ACTIVE_KEYS_PER_ACCOUNT} active keys; revoke one before creating another`,
    );
  }
  if (created === 'daily_limit_reached') {
    throw new ApiError(
      429,
      'daily_key_limit_reached',
      `this account already created ${MAX_KEYS_CREATED_PER_DAY} keys today (UTC); try again after midnight UTC`,
      { 'retry-after': String(secondsToNextUtcDay(new Date())) },
    );
  }
  count('KeysIssued', {});
  const answer: CreatedAccountKey = { ...accountKeyAnswer(created.record), key: created.key };
  return jsonResponse(201, answer);
});
