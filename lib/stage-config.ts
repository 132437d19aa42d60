/**
 * Everything that differs between stages, built from config/<stage>.json (shared/stage-options.ts) and a deploy's
 * `-c` overrides: the constructs read these fields and never branch on the stage name.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { LambdaDeploymentConfig, type ILambdaDeploymentConfig } from 'aws-cdk-lib/aws-codedeploy';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { parseCorsOrigins } from '#shared/cors';
import { parseCustomDomains, type CustomDomains, type FrontDoor, type RateWindowSeconds } from './edge-config';
import type { SystemLogLevel } from '#shared/function-settings';
import { ON_DEMAND_WARM_FLOOR, readStageOptions, stageFileOf, type OptionName, type StageOverrides } from '#shared/stage-options';
import { CREATE_PET_ROUTE_KEY, throttlingOf, type StageThrottling } from '#shared/stage-throttling';
import { parseStage, stackNameOf, type StageName } from '#shared/stages';
import { statusShardLayout, type StatusShardLayout } from '#shared/status-shards';
import type { TableKey } from '#shared/tables';

export type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

/** Reads and writes per second a table (and its indexes) can take at once, raised ahead of a launch peak. */
type WarmThroughput = { readonly readUnitsPerSecond?: number; readonly writeUnitsPerSecond?: number };

/** Alarm thresholds (lib/petstore-alarms.ts): counts per period, but the 5xx share in percent. */
interface AlarmConfig {
  readonly serverErrorRatePercent: number;
  readonly authorizerErrors: number;
  readonly tableThrottles: number;
  readonly unauthorizedRequests: number;
  readonly clientErrors: number;
  readonly throttledRequests: number;
  readonly period: Duration;
  readonly evaluationPeriods: number;
  readonly datapointsToAlarm: number;
}

/** One AWS WAF rate-based rule: requests one client IP may send per window before WAF blocks it. */
export interface RateLimit {
  readonly limit: number;
  readonly windowSeconds: RateWindowSeconds;
}

export interface StageConfig {
  readonly stage: StageName;
  /** The tables' removal policy. */
  readonly removalPolicy: RemovalPolicy;
  readonly deletionProtection: boolean;
  readonly terminationProtection: boolean;
  readonly logRetention: RetentionDays;
  readonly logRemovalPolicy: RemovalPolicy;
  readonly logLevel: LogLevel;
  /** Lambda's own records: at WARN no START/REPORT lines per invocation (shared/function-settings.ts). */
  readonly systemLogLevel: SystemLogLevel;
  readonly throttling: StageThrottling;
  /** Reserved concurrency for the writes, sized from their throttle (shared/function-settings.ts). */
  readonly reservedConcurrency: boolean;
  /** X-Ray active tracing of every function (HTTP APIs cannot trace themselves). */
  readonly tracing: boolean;
  /** How a new version takes the live alias's traffic (lib/petstore-deployments.ts); absent, no alias and no shift. */
  readonly trafficShift?: ILambdaDeploymentConfig;
  /** How the pets' status index is keyed: sized from createPet's rate, one generation per change (shared/status-shards.ts). */
  readonly statusShards: StatusShardLayout;
  /** Pre-warmed tables; the pets values warm its status index too. */
  readonly warmThroughput: Readonly<Partial<Record<TableKey, WarmThroughput>>>;
  readonly alarms: AlarmConfig;
  /** USD a month before AWS Budgets tells the alarm topic. */
  readonly monthlyBudgetUsd: number;
  /** The stage check (lib/petstore-stage-check.ts); `writes`: whether its pre-traffic run creates pets. */
  readonly stageCheck?: { readonly every: Duration; readonly writes: boolean; readonly canaryTraffic?: Duration };
  /** `-c hotfix=true`: this deploy shifts past firing rollback alarms (docs/runbooks.md); never committed. */
  readonly hotfix: boolean;
  readonly alarmEmail?: string;
  /** An HTTPS endpoint subscribed to the alarm topic; it must confirm the subscription. */
  readonly alarmHttpsEndpoint?: string;
  /** CORS is configured only when origins are given. */
  readonly corsOrigins?: readonly string[];
  readonly domains?: CustomDomains;
  /** CloudFront + AWS WAF in front of the APIs; the APIs refuse requests that bypass it. */
  readonly frontDoor?: FrontDoor;
  /** The user pool's web ACL (lib/petstore-identity.ts): the calls that make Cognito send an email, and all calls. */
  readonly userPoolProtection: { readonly emailingCallsPerClientIp: RateLimit; readonly callsPerClientIp: RateLimit };
  /** `control-tower`: a customer-managed key for tables and logs, a year of logs and more (lib/petstore-compliance.ts). */
  readonly compliance: 'none' | 'control-tower';
  /** SES in the stage's region; without it Cognito's own sender, whose daily quota suits no production. */
  readonly sesSender?: { readonly fromEmail: string; readonly verifiedDomain?: string };
}

/** What a `-c` override may hold: any stage option (shared/stage-options.ts). */
export type StageContext = StageOverrides;

/**
 * A person signs up, asks for a code again or resets a password a few times at most; 10 (WAF's minimum) in
 * 10 minutes leaves them room and holds one client IP to 1,440 emails a day instead of as many as Cognito takes.
 */
const EMAILING_CALLS_PER_CLIENT_IP: RateLimit = { limit: 10, windowSeconds: 600 };

/** 10 minutes: the canary must outlast one 5-minute alarm period with its traffic in it, plus CloudWatch's delay. */
export const TRAFFIC_SHIFT = LambdaDeploymentConfig.CANARY_10PERCENT_10MINUTES;

/** `alarmEmail: none`: no subscriber, on purpose. */
export const NO_ALARM_EMAIL = 'none';
/** `sesFromEmail: cognito`: Cognito's own sender, on purpose. */
export const COGNITO_SENDER = 'cognito';

function sesSenderOf(fromEmail: string, verifiedDomain: string | undefined): StageConfig['sesSender'] {
  if (fromEmail === COGNITO_SENDER) {
    if (verifiedDomain !== undefined)
      throw new Error(`sesVerifiedDomain: given without sesFromEmail (it is ${COGNITO_SENDER}), which it is for`);
    return undefined;
  }
  if (verifiedDomain === undefined) return { fromEmail };
  if (fromEmail.split('@')[1] !== verifiedDomain) {
    throw new Error(`sesVerifiedDomain: ${JSON.stringify(verifiedDomain)} is not the domain of sesFromEmail ${fromEmail}`);
  }
  return { fromEmail, verifiedDomain };
}

const warm = (readUnits: number | undefined, writeUnits: number | undefined): WarmThroughput | undefined =>
  readUnits === undefined && writeUnits === undefined
    ? undefined
    : {
        ...(readUnits !== undefined ? { readUnitsPerSecond: readUnits } : {}),
        ...(writeUnits !== undefined ? { writeUnitsPerSecond: writeUnits } : {}),
      };

/** The stage's committed options with a deploy's overrides, checked together and turned into what the constructs read. */
export function stageConfig(stage: StageName, overrides: StageOverrides = {}): StageConfig {
  const { options: o, placeholders } = readStageOptions(stage, overrides);
  if (placeholders.length > 0) {
    const held = (key: OptionName) => `${key}: ${stageFileOf(stage)} still holds the placeholder ${JSON.stringify(o[key])}`;
    throw new Error(
      placeholders.map((key) => `${held(key)}; write the real value there, or give one for this deploy: -c ${key}=…`).join('\n'),
    );
  }
  // The files give every stage its front door limits; on the command line they are a mistake without the front door.
  const unused = (['frontDoorRateLimit', 'frontDoorKeyRateLimit'] as const).filter((key) => !o.frontDoor && overrides[key] !== undefined);
  if (unused.length > 0)
    throw new Error(`${unused.join(', ')}: given without frontDoor, which ${unused.length > 1 ? 'they are' : 'it is'} for`);
  const compliance = o.compliance ?? 'none';
  const frontDoor = o.frontDoor
    ? { rateLimit: o.frontDoorRateLimit, keyRateLimit: o.frontDoorKeyRateLimit, rateWindowSeconds: 60 as const }
    : undefined;
  const throttling = throttlingOf(o);
  const pets = warm(o.petsWarmReads, o.petsWarmWrites);
  const messages = warm(undefined, o.messagesWarmWrites);
  const warmThroughput = { ...(pets ? { pets } : {}), ...(messages ? { messages } : {}) };
  // createPet must stay below what the pets table takes at once, or DynamoDB, not the gateway, turns the excess away.
  const createPet = throttling.pets.routes[CREATE_PET_ROUTE_KEY] ?? throttling.pets.defaultRoute;
  const tableWrites = pets?.writeUnitsPerSecond ?? ON_DEMAND_WARM_FLOOR.writeUnitsPerSecond;
  if (createPet.rateLimit > tableWrites) {
    throw new Error(
      `createPetRateLimit: ${createPet.rateLimit} creates/s is more than the pets table takes at once (${tableWrites} writes/s); ` +
        `pre-warm it: petsWarmWrites=${createPet.rateLimit} or more (docs/capacity.md)`,
    );
  }
  const statusShards = statusShardLayout(stage, createPet.rateLimit);
  const corsOrigins = parseCorsOrigins(stage, o.corsOrigins);
  const domains = parseCustomDomains(o, frontDoor !== undefined);
  const sesSender = sesSenderOf(o.sesFromEmail, o.sesVerifiedDomain);
  const kept = (retain: boolean) => (retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY);
  return {
    stage,
    removalPolicy: kept(o.retainData),
    deletionProtection: o.deletionProtection,
    terminationProtection: o.terminationProtection,
    // Control Tower's CT.CLOUDWATCH.PR.2 wants a year of logs at least. The schema admits CloudWatch's retentions only.
    // eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment
    logRetention: compliance === 'control-tower' ? Math.max(o.logRetentionDays, RetentionDays.ONE_YEAR) : o.logRetentionDays,
    logRemovalPolicy: kept(o.retainLogs),
    compliance,
    logLevel: o.logLevel,
    systemLogLevel: o.systemLogLevel,
    throttling,
    reservedConcurrency: o.reservedConcurrency,
    tracing: o.tracing,
    ...(o.canaryDeploys ? { trafficShift: TRAFFIC_SHIFT } : {}),
    statusShards,
    warmThroughput,
    alarms: {
      serverErrorRatePercent: o.alarmServerErrorRatePercent,
      authorizerErrors: o.alarmAuthorizerErrors,
      tableThrottles: o.alarmTableThrottles,
      unauthorizedRequests: o.alarmUnauthorizedRequests,
      clientErrors: o.alarmClientErrors,
      throttledRequests: o.alarmThrottledRequests,
      // Every stage alarms on a single 5-minute window; only the thresholds differ.
      ...{ period: Duration.minutes(5), evaluationPeriods: 1, datapointsToAlarm: 1 },
    },
    monthlyBudgetUsd: o.monthlyBudgetUsd,
    ...(o.stageCheckMinutes
      ? {
          stageCheck: {
            every: Duration.minutes(o.stageCheckMinutes),
            writes: o.stageCheckWrites ?? false,
            ...(o.canaryTrafficMinutes ? { canaryTraffic: Duration.minutes(o.canaryTrafficMinutes) } : {}),
          },
        }
      : {}),
    hotfix: o.hotfix ?? false,
    ...(o.alarmEmail !== NO_ALARM_EMAIL ? { alarmEmail: o.alarmEmail } : {}),
    ...(o.alarmHttpsEndpoint ? { alarmHttpsEndpoint: o.alarmHttpsEndpoint } : {}),
    ...(corsOrigins ? { corsOrigins } : {}),
    ...(domains ? { domains } : {}),
    ...(frontDoor ? { frontDoor } : {}),
    userPoolProtection: {
      emailingCallsPerClientIp: EMAILING_CALLS_PER_CLIENT_IP,
      callsPerClientIp: { limit: o.userPoolCallsPerClientIp, windowSeconds: 300 },
    },
    ...(sesSender ? { sesSender } : {}),
  };
}

/**
 * The stage a `cdk` command builds (`-c stage=…`), every other `-c` key an override, and a line that says which.
 * CDK's feature flags and the CLI's keys hold a colon; `ignored` names cdk.json's other keys.
 */
export function stageFromContext(
  context: Readonly<Record<string, unknown>>,
  ignored: readonly string[],
): { config: StageConfig; report: string } {
  const stage = parseStage(context.stage);
  const overrides = Object.fromEntries(
    Object.entries(context).filter(([key]) => key !== 'stage' && !key.includes(':') && !ignored.includes(key)),
  );
  const given = Object.entries(overrides).map(([key, value]) => `${key}=${String(value)}`);
  return {
    config: stageConfig(stage, overrides),
    report: `${stackNameOf(stage)}: ${stageFileOf(stage)}${given.length > 0 ? `; from the command line: ${given.join(', ')}` : ''}`,
  };
}
