/**
 * The service's own CloudWatch metrics: the functions emit them (lambda/runtime/metrics.ts), the dashboard graphs
 * them. Dimensions are bounded sets, never a key or account id, so the CloudWatch bill stays flat.
 */
export const METRICS_NAMESPACE = 'PetStore';

export interface MetricDefinition {
  readonly name: string;
  /** None for a count: EMF's default unit, 15 bytes less per metric in every line (docs/capacity.md). */
  readonly unit?: 'Milliseconds';
  readonly dimensions: readonly string[];
  /** Further dimension sets the same data point is also published under. */
  readonly breakdowns?: readonly (readonly string[])[];
}

/** The dimension naming the operation (shared/routes.ts operationId, or `authorizer`). */
export const OPERATION_DIMENSION = 'Operation';
export const SERVICE_DIMENSION = 'Service';
export const STAGE_DIMENSION = 'Stage';
export const OUTCOME_DIMENSION = 'Outcome';
/** A failed request's error `code` (the Error body's), or the authorizer's reason for an anonymous caller. */
export const CODE_DIMENSION = 'Code';
/** The function version that answered: a canary's rollback alarms count its outcomes apart (lib/petstore-alarms.ts). */
export const VERSION_DIMENSION = 'Version';
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
    dimensions: PER_OPERATION,
    breakdowns: [[...PER_OPERATION, VERSION_DIMENSION, OUTCOME_DIMENSION]],
  },
  /** 1 for every request that did not succeed (4xx and 5xx), 0 otherwise; by error code too. */
  Errors: { name: 'Errors', dimensions: PER_OPERATION, breakdowns: [[...PER_OPERATION, CODE_DIMENSION]] },
  /** From the function's first line of ours to its answer: what the operation itself takes. */
  Latency: { name: 'Latency', unit: 'Milliseconds', dimensions: PER_OPERATION },
  /** 1 on the first invocation of a process, 0 after. */
  ColdStarts: { name: 'ColdStarts', dimensions: PER_OPERATION },
} as const satisfies Record<string, MetricDefinition>;

/** What the service did for its users; sign-ups are Cognito's own SignUpSuccesses (no function of ours sees them). */
export const BUSINESS_METRICS = {
  PetsCreated: { name: 'PetsCreated', dimensions: [...PER_STAGE, STATUS_DIMENSION] },
  MessagesQueued: { name: 'MessagesQueued', dimensions: PER_STAGE },
  KeysIssued: { name: 'KeysIssued', dimensions: PER_STAGE },
  /** One per key revoked, whether by its owner or by closing the account. */
  KeysRevoked: { name: 'KeysRevoked', dimensions: PER_STAGE },
} as const satisfies Record<string, MetricDefinition>;

export type BusinessMetric = keyof typeof BUSINESS_METRICS;

export const METRICS: readonly MetricDefinition[] = [...Object.values(OPERATION_METRICS), ...Object.values(BUSINESS_METRICS)];
