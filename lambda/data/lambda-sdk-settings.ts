import { SERVICE_NAME } from '#shared/function-settings';

/**
 * In Lambda only, what an SDK client would look up in ~/.aws files, fixed to what it finds there (nothing), so no file
 * is read: the lookups (environment, then both files, an error per miss) cost Cognito's first call 5 of its 19 ms of
 * CPU (`npm run bench`, part 1). `userAgentAppId` names the service in AWS's logs.
 */
export const LAMBDA_SDK_SETTINGS = {
  useDualstackEndpoint: false,
  useFipsEndpoint: false,
  authSchemePreference: [] as string[],
  defaultsMode: 'legacy',
  disableClockSkewCorrection: false,
  userAgentAppId: SERVICE_NAME,
  // No AWS_ENDPOINT_URL(_<SERVICE>) and no profile `endpoint_url`: the regional endpoint, as before.
  ignoreConfiguredEndpointUrls: true,
} as const;

export const inLambda = (): boolean => process.env.AWS_LAMBDA_FUNCTION_NAME !== undefined;
