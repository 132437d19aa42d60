/**
 * Stands in for `@aws-sdk/credential-provider-node` in the Lambda bundles (lib/bundling.ts): Lambda hands the role's
 * credentials over as environment variables, where the default chain always ends at its first link, so only that
 * link is bundled. The local server, tests and the keys CLI keep the full chain.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';

export const defaultProvider = (init: Parameters<typeof fromEnv>[0] = {}): ReturnType<typeof fromEnv> => fromEnv(init);
