/**
 * The service's own CloudWatch metrics, as plain data: the functions emit them (embedded metric format,
 * lambda/runtime/metrics.ts), the stack's dashboard graphs them, the tests check that both agree. No aws-cdk-lib
 * import here on purpose.
 *
 * Dimensions are bounded sets (a stage, an operation, an outcome, an error code, a pet status), never a key or
 * account id, so the number of metrics, and with it the CloudWatch bill, stays flat however many keys and
 * accounts there are.
 */
export const METRICS_NAMESPACE = 'PetStore';

/** CloudWatch's unit names, the ones these metrics use. */
export type MetricUnit = 'Count' | 'Milliseconds';

export interface MetricDefinition {
  readonly name: string;
  readonly unit: MetricUnit;
  /** The dimension names every data point of the metric carries. */
  readonly dimensions: readonly string[];
  /** Further dimension sets the same data point is also published under (a breakdown of `dimensions`). */
  readonly breakdowns?: readonly (readonly string[])[];
}

/** The dimension naming the operation (shared/routes.ts operationId, or `authorizer`). */
export const OPERATION_DIMENSION = 'Operation';
/** POWERTOOLS_SERVICE_NAME (shared/function-settings.ts). */
export const SERVICE_DIMENSION = 'Service';
/** The stage the function belongs to (STAGE_ENV in shared/function-settings.ts; `local` when unset). */
export const STAGE_DIMENSION = 'Stage';
/** A request's outcome: one of OUTCOMES. */
export const OUTCOME_DIMENSION = 'Outcome';
/** A failed request's error `code` (the Error body's), or the authorizer's reason for an anonymous caller. */
export const CODE_DIMENSION = 'Code';
/** The function version that answered: a canary's rollback alarms count its outcomes apart (lib/petstore-alarms.ts). */
export const VERSION_DIMENSION = 'Version';
/** A created pet's status. */
export const STATUS_DIMENSION = 'status';

/** `success` below 400; `client_error` 4xx (the authorizer: an anonymous caller); `server_error` 5xx (the authorizer: lookup failed). */
export const OUTCOMES = ['success', 'client_error', 'server_error'] as const;
export type Outcome = (typeof OUTCOMES)[number];

const PER_OPERATION = [SERVICE_DIMENSION, STAGE_DIMENSION, OPERATION_DIMENSION] as const;
const PER_STAGE = [SERVICE_DIMENSION, STAGE_DIMENSION] as const;

/** Every operation's (and the authorizer's) requests, failures, latency and cold starts; one data point per invocation. */
export const OPERATION_METRICS = {
  Requests: {
    name: 'Requests',
    unit: 'Count',
    dimensions: PER_OPERATION,
    breakdowns: [[...PER_OPERATION, VERSION_DIMENSION, OUTCOME_DIMENSION]],
  },
  /** 1 for every request that did not succeed (4xx and 5xx), 0 otherwise; by error code too. */
  Errors: { name: 'Errors', unit: 'Count', dimensions: PER_OPERATION, breakdowns: [[...PER_OPERATION, CODE_DIMENSION]] },
  /** From the function's first line of ours to its answer: what the operation itself takes. */
  Latency: { name: 'Latency', unit: 'Milliseconds', dimensions: PER_OPERATION },
  /** 1 on the first invocation of a process, 0 after. */
  ColdStarts: { name: 'ColdStarts', unit: 'Count', dimensions: PER_OPERATION },
} as const satisfies Record<string, MetricDefinition>;

/**
 * What the service did for its users. No sign-ups: the portal signs users up with Cognito directly, and no
 * function of ours sees it (Cognito's own SignUpSuccesses metric counts them).
 */
export const BUSINESS_METRICS = {
  PetsCreated: { name: 'PetsCreated', unit: 'Count', dimensions: [...PER_STAGE, STATUS_DIMENSION] },
  MessagesQueued: { name: 'MessagesQueued', unit: 'Count', dimensions: PER_STAGE },
  KeysIssued: { name: 'KeysIssued', unit: 'Count', dimensions: PER_STAGE },
  /** One per key revoked, whether by its owner or by closing the account. */
  KeysRevoked: { name: 'KeysRevoked', unit: 'Count', dimensions: PER_STAGE },
} as const satisfies Record<string, MetricDefinition>;

export type BusinessMetric = keyof typeof BUSINESS_METRICS;

export const METRICS: readonly MetricDefinition[] = [...Object.values(OPERATION_METRICS), ...Object.values(BUSINESS_METRICS)];
