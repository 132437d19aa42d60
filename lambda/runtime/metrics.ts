import {
  BUSINESS_METRICS,
  CODE_DIMENSION,
  METRICS_NAMESPACE,
  OPERATION_DIMENSION,
  OPERATION_METRICS,
  OUTCOME_DIMENSION,
  SERVICE_DIMENSION,
  STAGE_DIMENSION,
  type BusinessMetric,
  type MetricDefinition,
  VERSION_DIMENSION,
  type Outcome,
} from '#shared/metrics';
import { SERVICE_NAME, STAGE_ENV } from '#shared/function-settings';
import { currentScope } from './request-scope';

/**
 * Embedded metric format written by hand instead of Powertools Metrics: the same JSON, nothing to load at cold start
 * (`npm run bench`, part 1). https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Specification.html
 */
interface Directive {
  Namespace: string;
  Dimensions: string[][];
  Metrics: { Name: string; Unit?: string }[];
}

const metric = ({ name, unit }: MetricDefinition): Directive['Metrics'][number] => (unit ? { Name: name, Unit: unit } : { Name: name });

const directive = (definition: MetricDefinition, dimensions: readonly (readonly string[])[]): Directive => ({
  Namespace: METRICS_NAMESPACE,
  Dimensions: dimensions.map((set) => [...set]),
  Metrics: [metric(definition)],
});

const baseDimensions = (): Record<string, string> => ({
  [SERVICE_DIMENSION]: process.env.POWERTOOLS_SERVICE_NAME ?? SERVICE_NAME,
  [STAGE_DIMENSION]: process.env[STAGE_ENV] ?? 'local',
});

/** POWERTOOLS_METRICS_DISABLED, whose default is `true` outside Lambda (the local server prints no metrics). */
export function metricsPublished(): boolean {
  const disabled = process.env.POWERTOOLS_METRICS_DISABLED;
  if (disabled !== undefined) return disabled !== 'true';
  return process.env.AWS_LAMBDA_FUNCTION_NAME !== undefined;
}

export interface RequestMeasurement {
  readonly operation: string;
  readonly outcome: Outcome;
  /** The error code (or the authorizer's reason) of a request that did not succeed. */
  readonly code: string | undefined;
  readonly latencyMs: number;
  readonly coldStart: boolean;
  readonly counts: readonly { name: string; dimensions: Readonly<Record<string, string>>; value: number }[];
}

/** A request's metrics and business counts as an EMF document, which the request's log line extends (observe.ts). */
export function requestMetrics(measured: RequestMeasurement): Record<string, unknown> {
  const { Requests, Errors, Latency, ColdStarts } = OPERATION_METRICS;
  const failed = measured.outcome !== 'success';
  const directives: Directive[] = [
    {
      Namespace: METRICS_NAMESPACE,
      Dimensions: [[...Requests.dimensions]],
      Metrics: [Requests, Errors, Latency, ColdStarts].map(metric),
    },
    directive(Requests, Requests.breakdowns),
  ];
  if (failed && measured.code !== undefined) directives.push(directive(Errors, Errors.breakdowns));
  const values: Record<string, unknown> = {};
  for (const count of measured.counts) {
    const definition = BUSINESS_METRICS[count.name as BusinessMetric];
    directives.push(directive(definition, [definition.dimensions]));
    Object.assign(values, count.dimensions, { [definition.name]: count.value });
  }
  return {
    _aws: { Timestamp: Date.now(), CloudWatchMetrics: directives },
    ...baseDimensions(),
    [OPERATION_DIMENSION]: measured.operation,
    [VERSION_DIMENSION]: process.env.AWS_LAMBDA_FUNCTION_VERSION ?? 'local',
    [OUTCOME_DIMENSION]: measured.outcome,
    ...(failed && measured.code !== undefined ? { [CODE_DIMENSION]: measured.code } : {}),
    ...values,
    [Requests.name]: 1,
    [Errors.name]: failed ? 1 : 0,
    [Latency.name]: Math.round(measured.latencyMs * 100) / 100,
    [ColdStarts.name]: measured.coldStart ? 1 : 0,
  };
}

type DimensionsOf<M extends BusinessMetric> = M extends 'PetsCreated' ? { readonly status: string } : Record<string, never>;

/** A business count, where the handler knows it (`count('PetsCreated', { status })`), published in its request's line. */
export function count<M extends BusinessMetric>(name: M, dimensions: DimensionsOf<M>, value = 1): void {
  if (value !== 0) currentScope()?.counts.push({ name, dimensions, value });
}
