/**
 * The local server's environment, in which every function runs: the union of every function's recipe
 * (shared/function-recipe.ts) with this machine's facts, as the stack asks it with a stage's, plus the emulators.
 */
import { COGNITO_ENDPOINT_ENV } from '#shared/accounts';
import { DEPLOYED_FUNCTIONS } from '#shared/deployed-functions';
import { functionRecipe } from '#shared/function-recipe';
import { STATUS_SHARD_HISTORY, type StatusShardLayout } from '#shared/status-shards';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '#local/engine/dynamodb-engine';
import type { TableNames } from '#local/engine/tables';

export interface LocalFacts {
  /** The embedded DynamoDB. */
  readonly endpoint: string;
  readonly tableNames: TableNames;
  /** Powertools' level (default: POWERTOOLS_LOG_LEVEL, else WARN). */
  readonly logLevel?: string;
  /** cognito-local, when the portal and the account API run. */
  readonly cognito?: { readonly endpoint: string; readonly userPoolId: string; readonly issuer: string; readonly clientId: string };
  /** The status index's layout (default: dev's, the stage the local server stands for). */
  readonly statusShards?: StatusShardLayout;
}

/** Where the emulators listen, and the region and credentials the SDK signs with (the emulators accept any). */
export const emulatorEnvironment = (dynamoDbEndpoint: string, cognitoEndpoint?: string): Record<string, string> => ({
  AWS_REGION: LOCAL_REGION,
  AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
  AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
  DYNAMODB_ENDPOINT: dynamoDbEndpoint,
  ...(cognitoEndpoint ? { [COGNITO_ENDPOINT_ENV]: cognitoEndpoint } : {}),
});

export function localFunctionEnvironment({ endpoint, tableNames, logLevel, cognito, statusShards }: LocalFacts): Record<string, string> {
  const recipes = DEPLOYED_FUNCTIONS.map((fn) =>
    functionRecipe(fn, {
      tableName: (key) => tableNames[key],
      logLevel: logLevel ?? process.env.POWERTOOLS_LOG_LEVEL ?? 'WARN',
      statusShards: statusShards ?? STATUS_SHARD_HISTORY.dev,
      ...(cognito ? { identity: { userPoolId: cognito.userPoolId, issuer: cognito.issuer, audience: cognito.clientId } } : {}),
    }),
  );
  const variables = recipes.flatMap((recipe) => Object.entries(recipe.environment));
  return { ...Object.fromEntries(variables), ...emulatorEnvironment(endpoint, cognito?.endpoint) };
}
