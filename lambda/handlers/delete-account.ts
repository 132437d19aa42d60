import { USER_POOL_ID_ENV } from '../../lib/accounts';
import { cognitoClient } from '../shared/cognito-client';
import { httpHandler } from '../shared/http-handler';
import { noContentResponse } from '../shared/http-response';
import { DELETE_ACCOUNT } from '../shared/operation-specs/delete-account';
import { CognitoAccountDirectory, type AccountDirectory } from '../shared/repositories/account-directory';
import type { AccountKeys } from '../shared/repositories/account-keys';
import { accountKeysStore } from '../shared/account-keys-store';

/**
 * DELETE /account — revokes every key of the account, then deletes the user from the pool: 204. Keys
 * first, so a failure part-way leaves a user who can sign in and retry, never working keys without an
 * account. Repeating it after a failure is safe (both steps are idempotent).
 */
export const deleteAccountHandler = (keys: AccountKeys, directory: AccountDirectory, now: () => Date = () => new Date()) =>
  httpHandler(DELETE_ACCOUNT, async ({ caller }) => {
    await keys.close(caller.accountId, now());
    await directory.deleteUser(caller.username);
    return noContentResponse();
  });

let directory: AccountDirectory | undefined;

/** Made on first use: only this operation talks to Cognito, and only once a caller got past the token check. */
function userPool(): AccountDirectory {
  const userPoolId = process.env[USER_POOL_ID_ENV];
  if (!userPoolId) throw new Error(`${USER_POOL_ID_ENV} is not set`);
  directory ??= new CognitoAccountDirectory(cognitoClient(), userPoolId);
  return directory;
}

export const handler = deleteAccountHandler(accountKeysStore(), { deleteUser: (username) => userPool().deleteUser(username) });
