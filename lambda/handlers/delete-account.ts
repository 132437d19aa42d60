import { accountOf } from '#auth/require-account';
import { httpHandler } from '#http/http-handler';
import { noContentResponse } from '#http/responses';
import { DELETE_ACCOUNT } from '#contract/operations/delete-account';
import { accountDirectory } from '#data/stores/account-directory';
import { accountKeys } from '#data/stores/account-keys';
import { count } from '#runtime/metrics';

const keys = accountKeys();
const directory = accountDirectory();

/** DELETE /account — 204. Keys first: a failure part-way leaves a user who can retry, never keys without an account. */
export const handler = httpHandler(DELETE_ACCOUNT, accountOf, async ({ caller }) => {
  count('KeysRevoked', {}, await keys.close(caller.accountId, new Date()));
  await directory.deleteUser(caller.username);
  return noContentResponse();
});
