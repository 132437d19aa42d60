import { accountKeyAnswer } from '#auth/key-record';
import { MAX_ACTIVE_KEYS_PER_ACCOUNT } from '#contract/account-limits';
import { ApiError, unauthorized } from '#contract/errors';
import { httpHandler } from '#http/http-handler';
import { jsonResponse } from '#http/responses';
import { CREATE_ACCOUNT_KEY } from '#contract/operations/create-account-key';
import type { CreatedAccountKey } from '#contract/schemas/account-key-response';
import { accountKeys } from '#data/stores/account-keys';

const keys = accountKeys();

/** POST /account/keys — 201 with the new key, shown this once; 409 at the cap on active keys. */
export const handler = httpHandler(CREATE_ACCOUNT_KEY, async ({ caller, body }) => {
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
  const answer: CreatedAccountKey = { ...accountKeyAnswer(created.record), key: created.key };
  return jsonResponse(201, answer);
});
