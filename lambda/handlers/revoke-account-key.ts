import { accountKeyAnswer } from '../shared/account-key-answer';
import { notFound } from '../shared/errors';
import { httpHandler } from '../shared/http-handler';
import { jsonResponse } from '../shared/http-response';
import { REVOKE_ACCOUNT_KEY } from '../shared/operation-specs/revoke-account-key';
import { accountKeys } from '../shared/stores/account-keys';

const keys = accountKeys();

/**
 * DELETE /account/keys/{keyId} — the revoked key (revoking again answers the same, with the first
 * time); 404 for an id that is not one of the caller's keys, whether unknown or another account's.
 */
export const handler = httpHandler(REVOKE_ACCOUNT_KEY, async ({ caller, path }) => {
  const revoked = await keys.revoke(caller.accountId, path.keyId, new Date());
  if (!revoked) throw notFound(`this account has no key ${path.keyId}`);
  return jsonResponse(200, accountKeyAnswer(revoked));
});
