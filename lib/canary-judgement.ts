/**
 * A canary's verdict: its new version against the version it replaces, over the same alarm period (docs/deploy-reference.md,
 * Safe deploys). One expression for both judgements, failures and the authorizer's refusals: of the requests the old
 * version's share says would have gone well, the new version spoiled clearly more, and enough of them to count.
 */
import type { Duration } from 'aws-cdk-lib';
import { MathExpression, Metric, type MathExpressionOptions } from 'aws-cdk-lib/aws-cloudwatch';
import { SERVICE_NAME } from '#shared/function-settings';
import {
  CODE_DIMENSION,
  METRICS_NAMESPACE,
  OPERATION_DIMENSION,
  OPERATION_METRICS,
  OUTCOME_DIMENSION,
  SERVICE_DIMENSION,
  STAGE_DIMENSION,
  VERSION_DIMENSION,
  type Outcome,
} from '#shared/metrics';
import { PRE_TRAFFIC_ANSWERS_AT_LEAST } from '#shared/stage-check';
import type { FunctionName } from '#shared/table-access';

/** Fewer requests to the new version than this in a period: too few to judge, the alarm stays OK; the hook sends as many. */
export const JUDGED_AT_LEAST = PRE_TRAFFIC_ANSWERS_AT_LEAST;
/** Spoiled requests beyond what the old version's share predicts, at least: one blip is never a verdict. */
export const EXCESS_AT_LEAST = 3;
/** The authorizer's new version refusing more than this share of the callers its predecessor would have admitted. */
export const REFUSAL_MARGIN_PERCENT = 50;

/**
 * The error codes (lambda/contract/schemas/error.ts, and the authorizer's reasons) of the answers that count as the
 * function's failure: only these come with a version-less count per operation (OPERATION_METRICS.Errors by code).
 */
export const FAILURE_CODES = {
  route: ['internal_error', 'service_unavailable'],
  authorizer: ['internal_error', 'unavailable'],
} as const;

export interface JudgedVersion {
  readonly name: FunctionName;
  /** The function's name (a token), its live alias's name, and the version this deploy published (a token). */
  readonly functionName: string;
  readonly aliasName: string;
  readonly version: string;
  readonly stage: string;
  readonly period: Duration;
}

/** `IF(…, 1, 0)` over these ids: the new version's requests and spoiled ones, the old version's. */
interface Counts {
  readonly newCalls: string;
  readonly newBad: string;
  readonly oldCalls: string;
  readonly oldBad: string;
}

function verdict(counts: Counts, marginPercent: number, usingMetrics: Record<string, Metric>, period: Duration, label: string) {
  // Each expression is given only the ids it names: CloudWatch takes at most 10 metrics in an alarm.
  const expression = (text: string, known: Record<string, Metric | MathExpression>, more: Partial<MathExpressionOptions> = {}) =>
    new MathExpression({
      expression: text,
      usingMetrics: Object.fromEntries(Object.entries(known).filter(([id]) => new RegExp(`\\b${id}\\b`).test(text))),
      period,
      ...more,
    });
  const sums = {
    newCalls: expression(counts.newCalls, usingMetrics),
    newBad: expression(counts.newBad, usingMetrics),
    oldCalls: expression(counts.oldCalls, usingMetrics),
    oldBad: expression(counts.oldBad, usingMetrics),
  };
  const oldShare = expression('IF(oldCalls > 0, oldBad / oldCalls, 0)', sums);
  // Spoiled beyond the old version's share, and how many the old version would have answered well.
  const excess = expression('newBad - newCalls * oldShare', { ...sums, oldShare });
  const expectedGood = expression('newCalls * (1 - oldShare)', { ...sums, oldShare });
  return expression(
    `IF(newCalls >= ${JUDGED_AT_LEAST} AND excess >= ${EXCESS_AT_LEAST} AND 100 * excess > ${marginPercent} * expectedGood, 1, 0)`,
    { ...sums, excess, expectedGood },
    { label },
  );
}

/** Lambda's counts of one function: through the live alias (every version, or the new one), or of the new version called directly. */
function lambdaSums(version: JudgedVersion, prefix: string, metricName: 'Invocations' | 'Errors'): Record<string, Metric> {
  const { functionName, aliasName, period } = version;
  const sum = (dimensionsMap: Record<string, string>) =>
    new Metric({ namespace: 'AWS/Lambda', metricName, dimensionsMap, period, statistic: 'Sum' });
  const alias = { FunctionName: functionName, Resource: `${functionName}:${aliasName}` };
  return {
    [`${prefix}All`]: sum(alias),
    [`${prefix}New`]: sum({ ...alias, ExecutedVersion: version.version }),
    // The pre-traffic hook's calls: the version itself, not through the alias.
    [`${prefix}Direct`]: sum({ FunctionName: functionName, Resource: `${functionName}:${version.version}` }),
  };
}

function serviceSum(version: JudgedVersion, metricName: string, dimensions: Record<string, string>): Metric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName,
    dimensionsMap: {
      [SERVICE_DIMENSION]: SERVICE_NAME,
      [STAGE_DIMENSION]: version.stage,
      [OPERATION_DIMENSION]: version.name,
      ...dimensions,
    },
    period: version.period,
    statistic: 'Sum',
  });
}

const answered = (version: JudgedVersion, outcome: Outcome) =>
  serviceSum(version, OPERATION_METRICS.Requests.name, { [VERSION_DIMENSION]: version.version, [OUTCOME_DIMENSION]: outcome });

const filled = (ids: readonly string[]) => ids.map((id) => `FILL(${id}, 0)`).join(' + ');

/** 1 when the new version crashed, timed out or answered 5xx clearly more often than the old one. */
export function failureVerdict(version: JudgedVersion, marginPercent: number): MathExpression {
  const codes = version.name === 'authorizer' ? FAILURE_CODES.authorizer : FAILURE_CODES.route;
  const failedCodes = Object.fromEntries(
    codes.map((code, index) => [`failedAll${index}`, serviceSum(version, OPERATION_METRICS.Errors.name, { [CODE_DIMENSION]: code })]),
  );
  const metrics = {
    ...lambdaSums(version, 'calls', 'Invocations'),
    ...lambdaSums(version, 'crashed', 'Errors'),
    failedNew: answered(version, 'server_error'),
    ...failedCodes,
  };
  return verdict(
    {
      newCalls: filled(['callsNew', 'callsDirect']),
      newBad: filled(['crashedNew', 'crashedDirect', 'failedNew']),
      oldCalls: `${filled(['callsAll'])} - FILL(callsNew, 0)`,
      // The failures by code count every version's, the hook's calls too: the new version's are taken off whole.
      oldBad: `${filled(['crashedAll'])} - FILL(crashedNew, 0) + ${filled(Object.keys(failedCodes))} - FILL(failedNew, 0)`,
    },
    marginPercent,
    metrics,
    version.period,
    `${version.name}: new version fails more than the old (1)`,
  );
}

/**
 * 1 when the authorizer's new version turned away clearly more callers than the old one: it writes a line for every
 * caller it does not admit (refused or failed) and none for one it admits, so Lambda's invocations are the calls.
 */
export function refusalVerdict(version: JudgedVersion): MathExpression {
  const metrics = {
    ...lambdaSums(version, 'calls', 'Invocations'),
    refusedNew: answered(version, 'client_error'),
    failedNew: answered(version, 'server_error'),
    turnedAwayAll: serviceSum(version, OPERATION_METRICS.Requests.name, {}),
  };
  return verdict(
    {
      newCalls: filled(['callsNew', 'callsDirect']),
      newBad: filled(['refusedNew', 'failedNew']),
      oldCalls: `${filled(['callsAll'])} - FILL(callsNew, 0)`,
      oldBad: 'FILL(turnedAwayAll, 0) - FILL(refusedNew, 0) - FILL(failedNew, 0)',
    },
    REFUSAL_MARGIN_PERCENT,
    metrics,
    version.period,
    'authorizer: new version refuses more than the old (1)',
  );
}
