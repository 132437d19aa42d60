import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { COGNITO_ENDPOINT_ENV } from '#shared/accounts';
import { observeAwsClient } from '#runtime/tracing';
import { DeadlineHttpHandler } from './deadline-http-handler';
import { inLambda, LAMBDA_SDK_SETTINGS } from './lambda-sdk-settings';

let shared: CognitoIdentityProviderClient | undefined;

/** One Cognito client per process, on first use (only account deletion calls it), bounded by the deadline too. */
export function cognitoClient(): CognitoIdentityProviderClient {
  const endpoint = process.env[COGNITO_ENDPOINT_ENV];
  shared ??= observeAwsClient(
    new CognitoIdentityProviderClient({
      // The SDK's default retry mode, named so that it is not looked up either.
      ...(inLambda() ? { ...LAMBDA_SDK_SETTINGS, retryMode: 'standard' } : {}),
      ...(endpoint ? { endpoint } : {}),
      maxAttempts: 3,
      requestHandler: new DeadlineHttpHandler('the user pool', { connectionMs: 1_000, requestMs: 3_000 }),
    }),
    'CognitoIdentityProvider',
  );
  return shared;
}
