import { accountKeyAnswer } from '#auth/key-record';
import { notFound } from '#contract/errors';
import { accountOf } from '#auth/require-account';
import { httpHandler } from '#http/http-handler';
import { jsonResponse } from '#http/responses';
import { REVOKE_ACCOUNT_KEY } from '#contract/operations/revoke-account-key';
import { accountKeys } from '#data/stores/account-keys';
import { count } from '#runtime/metrics';

const keys = accountKeys();

/** DELETE /account/keys/{keyId} — the revoked key (again: the same, first time kept); 404 unless the caller's. */
export const handler = httpHandler(REVOKE_ACCOUNT_KEY, accountOf, async ({ caller, path }) => {
  const now = new Date();
  const revoked = await keys.revoke(caller.accountId, path.keyId, now);
  if (!revoked) throw notFound(`this account has no key ${path.keyId}`);
  if (revoked.revokedAt === now.toISOString()) count('KeysRevoked', {});
  return jsonResponse(200, accountKeyAnswer(revoked));
});
