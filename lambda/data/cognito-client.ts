import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { COGNITO_ENDPOINT_ENV } from '#shared/accounts';
import { observeAwsClient } from '#runtime/tracing';
import { DeadlineHttpHandler } from './deadline-http-handler';

let shared: CognitoIdentityProviderClient | undefined;

/** One Cognito client per process, on first use (only account deletion calls it), bounded by the deadline too. */
export function cognitoClient(): CognitoIdentityProviderClient {
  const endpoint = process.env[COGNITO_ENDPOINT_ENV];
  shared ??= observeAwsClient(
    new CognitoIdentityProviderClient({
      ...(endpoint ? { endpoint } : {}),
      maxAttempts: 3,
      requestHandler: new DeadlineHttpHandler('the user pool', { connectionMs: 1_000, requestMs: 3_000 }),
    }),
    'CognitoIdentityProvider',
  );
  return shared;
}
