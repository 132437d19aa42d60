/**
 * Everything that differs between stages, in one typed object per stage, built from the stage's committed
 * options (config/<stage>.json, read by shared/stage-options.ts) and a deploy's `-c` overrides: the
 * constructs read these fields and never branch on the stage name themselves.
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
import type { TableKey } from '#shared/tables';

export type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

export type { ApiThrottling, StageThrottling, ThrottleConfig } from '#shared/stage-throttling';

/** Reads and writes per second a table (and its indexes) can take at once, raised ahead of a launch peak. */
export interface WarmThroughput {
  readonly readUnitsPerSecond?: number;
  readonly writeUnitsPerSecond?: number;
}

export interface AlarmConfig {
  /** Alarm when more than this share of an API's requests answer 5xx (percent). */
  readonly serverErrorRatePercent: number;
  /** Alarm when the authorizer function fails at least this often (count). */
  readonly authorizerErrors: number;
  /** Alarm when a table (or its indexes) throttles at least this many requests (count). */
  readonly tableThrottles: number;
  /** Alarm when an API answers 401 at least this often in a period: a flood of anonymous or bad keys (count). */
  readonly unauthorizedRequests: number;
  /** Alarm when an API answers 4xx (401 and 429 included) at least this often in a period (count). */
  readonly clientErrors: number;
  /** Alarm when API Gateway throttles (429) at least this many of an API's requests in a period (count). */
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

/** The web ACL on the user pool (lib/petstore-identity.ts): Cognito's public API is open to anyone who reads config.json. */
export interface UserPoolProtection {
  /** SignUp, ResendConfirmationCode and ForgotPassword: the calls that make Cognito send an email. */
  readonly emailingCallsPerClientIp: RateLimit;
  /** Every call to the pool's public API, sign-in and token refresh included. */
  readonly callsPerClientIp: RateLimit;
}

/** Amazon SES sends the user pool's emails from a verified identity in the stage's region (`sesFromEmail`). */
export interface SesSender {
  readonly fromEmail: string;
  /** When SES verified the domain rather than the address (`sesVerifiedDomain`). */
  readonly verifiedDomain?: string;
}

export interface StageConfig {
  readonly stage: StageName;
  /** What happens to the tables when the stack (or a table) is deleted. */
  readonly removalPolicy: RemovalPolicy;
  readonly deletionProtection: boolean;
  /** CloudFormation refuses to delete the stack (and its edge stack) while it is on. */
  readonly terminationProtection: boolean;
  readonly logRetention: RetentionDays;
  /** Log groups expire on their own; prod keeps them past the stack, for audits. */
  readonly logRemovalPolicy: RemovalPolicy;
  readonly logLevel: LogLevel;
  /** Lambda's own records: at WARN no START/REPORT lines per invocation (shared/function-settings.ts). */
  readonly systemLogLevel: SystemLogLevel;
  /** Per API and per route (shared/stage-throttling.ts). */
  readonly throttling: StageThrottling;
  /**
   * Whether the writes get reserved concurrency sized from their throttle (shared/function-settings.ts). Off in
   * dev: a new account's concurrency quota can be too small to reserve any and still keep the 100 Lambda requires
   * unreserved (`npm run doctor` checks it).
   */
  readonly reservedConcurrency: boolean;
  /**
   * X-Ray active tracing of every function. HTTP APIs cannot trace themselves (X-Ray
   * traces only REST APIs), so a trace starts at the function; the runtime tracer adds the DynamoDB and Cognito calls.
   */
  readonly tracing: boolean;
  /**
   * How a new version of each function takes the live alias's traffic (lib/petstore-deployments.ts), rolling back
   * when the stage's alarms fire; absent, a deploy switches every function at once and there is no alias.
   */
  readonly trafficShift?: ILambdaDeploymentConfig;
  /** Pre-warmed tables; the pets values warm its status index too. */
  readonly warmThroughput: Readonly<Partial<Record<TableKey, WarmThroughput>>>;
  readonly alarms: AlarmConfig;
  /** What the stage may cost in a month (USD) before AWS Budgets tells the alarm topic (lib/petstore-alarms.ts). */
  readonly monthlyBudgetUsd: number;
  /**
   * The stage check (lib/petstore-stage-check.ts): how often it runs, whether its pre-traffic run creates (pets cannot
   * be deleted), how long the hook calls a stage without traffic of its own through a canary. None without it.
   */
  readonly stageCheck?: { readonly every: Duration; readonly writes: boolean; readonly canaryTraffic?: Duration };
  /** `-c hotfix=true`: this deploy shifts past firing rollback alarms (docs/runbooks.md); never committed. */
  readonly hotfix: boolean;
  /** Subscribed to the alarm topic when set. */
  readonly alarmEmail?: string;
  /** CORS is configured only when origins are given. */
  readonly corsOrigins?: readonly string[];
  /** Stable addresses (lib/edge-config.ts); execute-api URLs without. */
  readonly domains?: CustomDomains;
  /** CloudFront + AWS WAF in front of both APIs; the APIs refuse requests that bypass it. */
  readonly frontDoor?: FrontDoor;
  readonly userPoolProtection: UserPoolProtection;
  /** Without it Cognito's own sender, whose daily quota suits no production. */
  readonly sesSender?: SesSender;
}

/** What a `-c` override may hold: any stage option (shared/stage-options.ts). */
export type StageContext = StageOverrides;

/**
 * A person signs up, asks for a code again or resets a password a few times at most; 10 (WAF's minimum) in
 * 10 minutes leaves them room and holds one client IP to 1,440 emails a day instead of as many as Cognito takes.
 */
const EMAILING_CALLS_PER_CLIENT_IP: RateLimit = { limit: 10, windowSeconds: 600 };

/** Every stage alarms on a single 5-minute window; only the thresholds differ. */
const ONE_FIVE_MINUTE_WINDOW = { period: Duration.minutes(5), evaluationPeriods: 1, datapointsToAlarm: 1 };

/**
 * 10 % of requests to the new version for 10 minutes, then all (`canaryDeploys`): the rollback alarms look at one
 * 5-minute period, so the canary must outlast a whole period with its traffic in it plus CloudWatch's delay, or a
 * bad version would take all the traffic before its alarm could fire.
 */
export const TRAFFIC_SHIFT = LambdaDeploymentConfig.CANARY_10PERCENT_10MINUTES;

/** `alarmEmail: none`: no subscriber, on purpose. */
export const NO_ALARM_EMAIL = 'none';
/** `sesFromEmail: cognito`: Cognito's own sender, on purpose. */
export const COGNITO_SENDER = 'cognito';

function sesSenderOf(fromEmail: string, verifiedDomain: string | undefined): SesSender | undefined {
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

/**
 * createPet must stay below what the pets table takes at once, or DynamoDB, not the gateway, turns the excess
 * away: each create is one write to the table and one to its status index (whose write-sharded key spreads
 * them, shared/tables.ts).
 */
function checkCreatePetFitsTable(throttling: StageThrottling, warmThroughput: StageConfig['warmThroughput']): void {
  const createPet = throttling.pets.routes[CREATE_PET_ROUTE_KEY] ?? throttling.pets.defaultRoute;
  const tableWrites = warmThroughput.pets?.writeUnitsPerSecond ?? ON_DEMAND_WARM_FLOOR.writeUnitsPerSecond;
  if (createPet.rateLimit > tableWrites) {
    throw new Error(
      `createPetRateLimit: ${createPet.rateLimit} creates/s is more than the pets table takes at once (${tableWrites} writes/s); ` +
        `pre-warm it: petsWarmWrites=${createPet.rateLimit} or more (docs/capacity.md)`,
    );
  }
}

const RETENTIONS = Object.values(RetentionDays).filter((days): days is RetentionDays => typeof days === 'number');

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
  const logRetention = RETENTIONS.find((days) => days.valueOf() === o.logRetentionDays);
  if (logRetention === undefined) {
    throw new Error(`logRetentionDays: ${o.logRetentionDays} is not a retention CloudWatch Logs offers (${RETENTIONS.join(', ')})`);
  }
  const frontDoor = o.frontDoor
    ? { rateLimit: o.frontDoorRateLimit, keyRateLimit: o.frontDoorKeyRateLimit, rateWindowSeconds: 60 as const }
    : undefined;
  const throttling = throttlingOf(o);
  const pets = warm(o.petsWarmReads, o.petsWarmWrites);
  const messages = warm(undefined, o.messagesWarmWrites);
  const warmThroughput = { ...(pets ? { pets } : {}), ...(messages ? { messages } : {}) };
  checkCreatePetFitsTable(throttling, warmThroughput);
  const corsOrigins = parseCorsOrigins(stage, o.corsOrigins);
  const domains = parseCustomDomains(o, frontDoor !== undefined);
  const sesSender = sesSenderOf(o.sesFromEmail, o.sesVerifiedDomain);
  const kept = (retain: boolean) => (retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY);
  return {
    stage,
    removalPolicy: kept(o.retainData),
    deletionProtection: o.deletionProtection,
    terminationProtection: o.terminationProtection,
    logRetention,
    logRemovalPolicy: kept(o.retainLogs),
    logLevel: o.logLevel,
    systemLogLevel: o.systemLogLevel,
    throttling,
    reservedConcurrency: o.reservedConcurrency,
    tracing: o.tracing,
    ...(o.canaryDeploys ? { trafficShift: TRAFFIC_SHIFT } : {}),
    warmThroughput,
    alarms: {
      serverErrorRatePercent: o.alarmServerErrorRatePercent,
      authorizerErrors: o.alarmAuthorizerErrors,
      tableThrottles: o.alarmTableThrottles,
      unauthorizedRequests: o.alarmUnauthorizedRequests,
      clientErrors: o.alarmClientErrors,
      throttledRequests: o.alarmThrottledRequests,
      ...ONE_FIVE_MINUTE_WINDOW,
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
 * The stage a `cdk` command builds (`-c stage=…`, dev by default) from its committed options, every other `-c` key
 * an override of one of them, and a line that says which. The CDK's feature flags and the CLI's own keys hold a
 * colon; `ignored` names cdk.json's other keys.
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
