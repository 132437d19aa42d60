/**
 * Everything that differs between stages, in one typed object per stage: the constructs read these
 * fields and never branch on the stage name themselves.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { parseCorsOrigins } from './cors';
import { STAGE_THROTTLING, type ThrottleConfig } from './stage-throttling';
import type { StageName } from './stages';

export type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

export type { ThrottleConfig } from './stage-throttling';

export interface AlarmConfig {
  /** Alarm when more than this share of an API's requests answer 5xx (percent). */
  readonly serverErrorRatePercent: number;
  /** Alarm when the authorizer function fails at least this often (count). */
  readonly authorizerErrors: number;
  /** Alarm when a table (or its indexes) throttles at least this many requests (count). */
  readonly tableThrottles: number;
  readonly period: Duration;
  readonly evaluationPeriods: number;
  readonly datapointsToAlarm: number;
}

export interface StageConfig {
  readonly stage: StageName;
  /** What happens to the tables when the stack (or a table) is deleted. */
  readonly removalPolicy: RemovalPolicy;
  readonly deletionProtection: boolean;
  readonly logRetention: RetentionDays;
  /** Log groups expire on their own; only prod keeps them past the stack, for audits. */
  readonly logRemovalPolicy: RemovalPolicy;
  readonly logLevel: LogLevel;
  readonly throttling: ThrottleConfig;
  readonly alarms: AlarmConfig;
  /** Subscribed to the alarm topic when set (`-c alarmEmail=ops@example.com`). */
  readonly alarmEmail?: string;
  /** CORS is configured only when origins are given (`-c corsOrigins=https://a.example,https://b.example`). */
  readonly corsOrigins?: readonly string[];
}

type StageDefaults = Omit<StageConfig, 'stage' | 'alarmEmail' | 'corsOrigins'>;

/** Every stage alarms on a single 5-minute window; only the thresholds differ. */
const ONE_FIVE_MINUTE_WINDOW = { period: Duration.minutes(5), evaluationPeriods: 1, datapointsToAlarm: 1 };

const STAGE_DEFAULTS: Record<StageName, StageDefaults> = {
  // Throwaway: everything goes with the stack, logs are short-lived, alarms only catch gross breakage.
  dev: {
    removalPolicy: RemovalPolicy.DESTROY,
    deletionProtection: false,
    logRetention: RetentionDays.ONE_WEEK,
    logRemovalPolicy: RemovalPolicy.DESTROY,
    logLevel: 'DEBUG',
    throttling: STAGE_THROTTLING.dev,
    alarms: { serverErrorRatePercent: 10, authorizerErrors: 5, tableThrottles: 10, ...ONE_FIVE_MINUTE_WINDOW },
  },
  // Rehearses prod: tables are RETAINed so a mistaken `cdk destroy` loses no issued keys or data, but
  // without deletion protection so an operator can still delete them on purpose (docs/deploy.md, Tear down).
  staging: {
    removalPolicy: RemovalPolicy.RETAIN,
    deletionProtection: false,
    logRetention: RetentionDays.ONE_MONTH,
    logRemovalPolicy: RemovalPolicy.DESTROY,
    logLevel: 'INFO',
    throttling: STAGE_THROTTLING.staging,
    alarms: { serverErrorRatePercent: 5, authorizerErrors: 1, tableThrottles: 1, ...ONE_FIVE_MINUTE_WINDOW },
  },
  // Data outlives the stack and cannot be deleted by accident; a single bad 5-minute window pages.
  prod: {
    removalPolicy: RemovalPolicy.RETAIN,
    deletionProtection: true,
    logRetention: RetentionDays.SIX_MONTHS,
    logRemovalPolicy: RemovalPolicy.RETAIN,
    logLevel: 'INFO',
    throttling: STAGE_THROTTLING.prod,
    alarms: { serverErrorRatePercent: 1, authorizerErrors: 1, tableThrottles: 1, ...ONE_FIVE_MINUTE_WINDOW },
  },
};

function parseEmail(value: unknown): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(value))
    throw new Error(`alarmEmail: ${JSON.stringify(value)} is not an email address`);
  return value;
}

/** Optional settings read from CDK context; unknown types are rejected rather than guessed. */
export interface StageContext {
  readonly alarmEmail?: unknown;
  readonly corsOrigins?: unknown;
}

export function stageConfig(stage: StageName, context: StageContext = {}): StageConfig {
  const alarmEmail = parseEmail(context.alarmEmail);
  const corsOrigins = parseCorsOrigins(stage, context.corsOrigins);
  return {
    stage,
    ...STAGE_DEFAULTS[stage],
    ...(alarmEmail ? { alarmEmail } : {}),
    ...(corsOrigins ? { corsOrigins } : {}),
  };
}
