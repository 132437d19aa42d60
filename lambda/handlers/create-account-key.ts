import { accountKeyAnswer } from '../shared/account-key-answer';
import { MAX_ACTIVE_KEYS_PER_ACCOUNT } from '../shared/account-settings';
import { ApiError, unauthorized } from '../shared/errors';
import { httpHandler } from '../shared/http-handler';
import { jsonResponse } from '../shared/http-response';
import { CREATE_ACCOUNT_KEY } from '../shared/operation-specs/create-account-key';
import type { CreatedAccountKey } from '../shared/schemas/account-key-response';
import { accountKeys } from '../shared/stores/account-keys';

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
