import { USER_POOL_ID_ENV } from '#shared/accounts';
import { cognitoClient } from '../cognito-client';
import { CognitoAccountDirectory, type AccountDirectory } from '../repositories/account-directory';

/**
 * The user pool (a store: see ./pets.ts). Its client is made at init: the first deletion's CPU is then its call only,
 * ~3 ms less, init plus first invocation unchanged (`npm run bench`, part 1).
 */
export function accountDirectory(): AccountDirectory {
  const cognito = cognitoClient();
  let directory: AccountDirectory | undefined;
  return {
    deleteUser: (username) => {
      const userPoolId = process.env[USER_POOL_ID_ENV];
      if (!userPoolId) throw new Error(`${USER_POOL_ID_ENV} is not set`);
      directory ??= new CognitoAccountDirectory(cognito, userPoolId);
      return directory.deleteUser(username);
    },
  };
}
