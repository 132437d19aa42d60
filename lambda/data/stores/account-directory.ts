import { USER_POOL_ID_ENV } from '#shared/accounts';
import { cognitoClient } from '../cognito-client';
import { CognitoAccountDirectory, type AccountDirectory } from '../repositories/account-directory';

/** The user pool (a store: see ./pets.ts), its client made on first use, past the token check. */
export function accountDirectory(): AccountDirectory {
  let directory: AccountDirectory | undefined;
  return {
    deleteUser: (username) => {
      const userPoolId = process.env[USER_POOL_ID_ENV];
      if (!userPoolId) throw new Error(`${USER_POOL_ID_ENV} is not set`);
      directory ??= new CognitoAccountDirectory(cognitoClient(), userPoolId);
      return directory.deleteUser(username);
    },
  };
}
