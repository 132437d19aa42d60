/**
 * Finds the account (the user's `sub`) of an email address in a user pool: the keys CLI's `--email`.
 * In AWS the stage's pool; locally the cognito-local of a running `npm start` (it notes its address in
 * the data directory), or one started on the data directory for the lookup.
 */
import { ListUsersCommand, type CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { localCognitoClient, startLocalCognito } from './cognito';
import { readHolderNote, writeHolderNote } from '#local/engine/data-dir-lock';

const RUNNING_FILE = 'cognito.json';

/** Written by `npm start` once cognito-local listens. */
export const noteRunningCognito = (dataDir: string, endpoint: string, userPoolId: string): void =>
  writeHolderNote(dataDir, RUNNING_FILE, { endpoint, userPoolId });

/** The `sub` of the user with this email address, or undefined when the pool has none. */
export async function accountOfEmail(
  cognito: CognitoIdentityProviderClient,
  userPoolId: string,
  email: string,
): Promise<string | undefined> {
  if (!/^[^"\\\s]+@[^"\\\s]+$/.test(email)) throw new Error(`--email ${JSON.stringify(email)} is not an email address`);
  const { Users } = await cognito.send(new ListUsersCommand({ UserPoolId: userPoolId, Filter: `email = "${email}"`, Limit: 2 }));
  return Users?.[0]?.Attributes?.find((attribute) => attribute.Name === 'sub')?.Value;
}

/** The same lookup in the local user pool of a data directory. */
export async function localAccountOfEmail(dataDir: string, email: string): Promise<string | undefined> {
  const running = readHolderNote<{ endpoint: string; userPoolId: string }>(dataDir, RUNNING_FILE);
  const started = running?.endpoint && running.userPoolId ? undefined : await startLocalCognito({ dataDir });
  const { endpoint = '', userPoolId = '' } = started ?? running ?? {};
  const client = localCognitoClient(endpoint);
  try {
    return await accountOfEmail(client, userPoolId, email);
  } finally {
    client.destroy();
    await started?.stop();
  }
}
