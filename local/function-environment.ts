/**
 * The environment of the local server's process, in which every function runs: the union of every
 * function's recipe (shared/function-recipe.ts) with this machine's facts, plus where the emulated services
 * listen and the credentials the SDK signs with (both engines accept any). The stack asks the same recipe
 * with a stage's facts, so every variable a function reads in Lambda is here too, with the same meaning; here
 * it also sees the other functions' (one process runs them all), which the rehearsal of a deploy does not.
 */
import { COGNITO_ENDPOINT_ENV } from '#shared/accounts';
import { DEPLOYED_FUNCTIONS } from '#shared/deployed-functions';
import { functionRecipe } from '#shared/function-recipe';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from './dynamodb-engine';
import type { TableNames } from './tables';

export interface LocalFacts {
  /** The embedded DynamoDB. */
  readonly endpoint: string;
  readonly tableNames: TableNames;
  /** Powertools' level (default: POWERTOOLS_LOG_LEVEL, else WARN). */
  readonly logLevel?: string;
  /** cognito-local, when the portal and the account API run. */
  readonly cognito?: { readonly endpoint: string; readonly userPoolId: string; readonly issuer: string; readonly clientId: string };
}

export function localFunctionEnvironment(facts: LocalFacts): Record<string, string> {
  const { cognito } = facts;
  const recipes = DEPLOYED_FUNCTIONS.map((fn) =>
    functionRecipe(fn, {
      tableName: (key) => facts.tableNames[key],
      logLevel: facts.logLevel ?? process.env.POWERTOOLS_LOG_LEVEL ?? 'WARN',
      ...(cognito ? { identity: { userPoolId: cognito.userPoolId, issuer: cognito.issuer, audience: cognito.clientId } } : {}),
    }),
  );
  return Object.assign(
    {},
    ...recipes.map((recipe) => recipe.environment),
    {
      DYNAMODB_ENDPOINT: facts.endpoint,
      AWS_REGION: LOCAL_REGION,
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    },
    cognito ? { [COGNITO_ENDPOINT_ENV]: cognito.endpoint } : {},
  ) as Record<string, string>;
}
