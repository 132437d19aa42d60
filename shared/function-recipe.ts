/**
 * What a function runs with (environment, access), from the facts of where it runs: the stack asks with its tokens,
 * the local server with its emulators' values, so "what does function X run with" has one answer.
 */
import { ACCOUNT_TOKEN_AUDIENCE_ENV, ACCOUNT_TOKEN_ISSUER_ENV, IDENTITY_ACCESS, USER_POOL_ID_ENV, type CognitoAction } from './accounts';
import type { DeployedFunction } from './deployed-functions';
import { FORWARDED_HOST_HEADER, FRONT_DOOR_SECRET_ENV, PUBLIC_HOST_HEADER_ENV } from './origin-headers';
import { CONCURRENCY_GUARDED_FUNCTIONS, functionEnvironment, STAGE_ENV, reservedConcurrencyFor } from './function-settings';
import { routeKeyOf, routeThrottle, type StageThrottling } from './stage-throttling';
import { TABLE_ACCESS, tablesUsedBy, type TableAccess } from './table-access';
import { STATUS_SHARDS_ENV, type StatusShardLayout } from './status-shards';
import { tableEnvironment, type TableKey } from './tables';

/** Where the functions run: a stage (values are CloudFormation tokens) or the local server. */
export interface RunFacts {
  readonly tableName: (key: TableKey) => string;
  readonly logLevel: string;
  /** How the pets' status index is keyed (shared/status-shards.ts), for the functions that use the pets table. */
  readonly statusShards?: StatusShardLayout;
  /** The user pool, and the issuer and app client of the account API's access tokens. */
  readonly identity?: { readonly userPoolId: string; readonly issuer: string; readonly audience: string };
  /** The secret CloudFront sends, which the authorizer checks (shared/origin-headers.ts). */
  readonly frontDoorSecret?: string;
  /** The stage's throttles, when it reserves concurrency for its writes. */
  readonly reservedFor?: StageThrottling;
  /** X-Ray active tracing; off locally, where no X-Ray daemon listens. */
  readonly tracing?: boolean;
  /** The metrics' Stage dimension (shared/metrics.ts). */
  readonly stage?: string;
}

/** Powertools Tracer's switch, so the runtime tracer follows the stage without a variable of ours. */
export const TRACE_ENABLED_ENV = 'POWERTOOLS_TRACE_ENABLED';

export interface FunctionRecipe {
  readonly environment: Readonly<Record<string, string>>;
  readonly tables: readonly TableAccess[];
  readonly identityActions: readonly CognitoAction[];
  /** Also its ceiling; the account's shared pool when absent. */
  readonly reservedConcurrency?: number;
  readonly traced: boolean;
}

function frontDoorEnvironment(fn: DeployedFunction, secret: string | undefined): Record<string, string> {
  if (secret === undefined) return {};
  // The authorizer checks the origin secret, which the stage check sends as CloudFront does; the route functions
  // learn which header carries the host clients called.
  if (fn.name === 'authorizer' || fn.name === 'stageCheck') return { [FRONT_DOOR_SECRET_ENV]: secret };
  return fn.route && fn.route.api !== 'account' ? { [PUBLIC_HOST_HEADER_ENV]: FORWARDED_HOST_HEADER } : {};
}

function reservedConcurrency(fn: DeployedFunction, throttling: StageThrottling | undefined): number | undefined {
  const guarded = (CONCURRENCY_GUARDED_FUNCTIONS as readonly string[]).includes(fn.name);
  if (!guarded || !throttling || !fn.route) return undefined;
  return reservedConcurrencyFor(routeThrottle(throttling[fn.route.api], routeKeyOf(fn.route)).rateLimit);
}

export function functionRecipe(fn: DeployedFunction, facts: RunFacts): FunctionRecipe {
  const identityActions = IDENTITY_ACCESS[fn.name] ?? [];
  const { identity } = facts;
  const reserved = reservedConcurrency(fn, facts.reservedFor);
  // Not the authorizer: each of its invocations would be a trace of its own, nearly always a cache hit (docs/operations.md).
  const traced = facts.tracing === true && fn.name !== 'authorizer';
  return {
    environment: {
      ...tableEnvironment(tablesUsedBy(fn.name), facts.tableName),
      ...(facts.statusShards && tablesUsedBy(fn.name).includes('pets') ? { [STATUS_SHARDS_ENV]: JSON.stringify(facts.statusShards) } : {}),
      ...functionEnvironment(facts.logLevel),
      [TRACE_ENABLED_ENV]: String(traced),
      ...(facts.stage ? { [STAGE_ENV]: facts.stage } : {}),
      ...frontDoorEnvironment(fn, facts.frontDoorSecret),
      // The account functions check the access token's issuer and audience again (defense in depth).
      ...(fn.account && identity ? { [ACCOUNT_TOKEN_ISSUER_ENV]: identity.issuer, [ACCOUNT_TOKEN_AUDIENCE_ENV]: identity.audience } : {}),
      ...(identityActions.length > 0 && identity ? { [USER_POOL_ID_ENV]: identity.userPoolId } : {}),
    },
    tables: TABLE_ACCESS[fn.name],
    identityActions,
    ...(reserved !== undefined ? { reservedConcurrency: reserved } : {}),
    traced,
  };
}
