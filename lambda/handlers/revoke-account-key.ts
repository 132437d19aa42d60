import { accountKeyAnswer } from '../shared/account-key-answer';
import { notFound } from '../shared/errors';
import { httpHandler } from '../shared/http-handler';
import { jsonResponse } from '../shared/http-response';
import { REVOKE_ACCOUNT_KEY } from '../shared/operation-specs/revoke-account-key';
import type { AccountKeys } from '../shared/repositories/account-keys';
import { accountKeysStore } from '../shared/account-keys-store';

/**
 * DELETE /account/keys/{keyId} — the revoked key (revoking again answers the same, with the first
 * time); 404 for an id that is not one of the caller's keys, whether unknown or another account's.
 */
export const revokeAccountKeyHandler = (keys: AccountKeys, now: () => Date = () => new Date()) =>
  httpHandler(REVOKE_ACCOUNT_KEY, async ({ caller, path }) => {
    const revoked = await keys.revoke(caller.accountId, path.keyId, now());
    if (!revoked) throw notFound(`this account has no key ${path.keyId}`);
    return jsonResponse(200, accountKeyAnswer(revoked));
  });

export const handler = revokeAccountKeyHandler(accountKeysStore());
