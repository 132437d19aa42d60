/**
 * Stands in for `@aws-sdk/credential-provider-node` in the Lambda bundles (esbuild alias in
 * lib/bundling.ts). The SDK's default chain tries environment variables first and only then SSO,
 * ini files, credential processes, web identity and the container/instance metadata services;
 * Lambda always hands the function's role credentials over as environment variables (and sets no
 * AWS_PROFILE), so the chain always ends at its first link there. Bundling only that link gives the
 * same credentials while leaving the rest of the chain out of every cold start. Only the Lambda
 * bundles are aliased: the local server, tests and the keys CLI keep the SDK's full chain.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';

export const defaultProvider = (init: Parameters<typeof fromEnv>[0] = {}): ReturnType<typeof fromEnv> => fromEnv(init);
