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

const userPoolId = process.env[USER_POOL_ID_ENV];
if (!userPoolId) throw new Error(`${USER_POOL_ID_ENV} is not set`);

export const handler = deleteAccountHandler(accountKeysStore(), new CognitoAccountDirectory(cognitoClient(), userPoolId));
