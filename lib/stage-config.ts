/**
 * Everything that differs between stages, in one typed object per stage: the constructs read these
 * fields and never branch on the stage name themselves.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { LambdaDeploymentConfig, type ILambdaDeploymentConfig } from 'aws-cdk-lib/aws-codedeploy';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { parseCorsOrigins } from '#shared/cors';
import {
  flag,
  parseCustomDomains,
  parseFrontDoor,
  type CustomDomains,
  type EdgeContext,
  type FrontDoor,
  type RateWindowSeconds,
} from './edge-config';
import type { SystemLogLevel } from '#shared/function-settings';
import {
  CREATE_PET_ROUTE_KEY,
  STAGE_THROTTLING,
  type ApiThrottling,
  type StageThrottling,
  type ThrottleConfig,
} from '#shared/stage-throttling';
import type { StageName } from '#shared/stages';
import type { TableKey } from '#shared/tables';

export type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

export type { ApiThrottling, StageThrottling, ThrottleConfig } from '#shared/stage-throttling';

/** Reads and writes per second a table (and its indexes) can take at once, raised ahead of a launch peak. */
export interface WarmThroughput {
  readonly readUnitsPerSecond?: number;
  readonly writeUnitsPerSecond?: number;
}

/**
 * What a new on-demand table or index takes at once without pre-warming ("Pre-warming a table for on-demand
 * capacity mode"): warm throughput below it buys nothing.
 */
export const ON_DEMAND_WARM_FLOOR = { readUnitsPerSecond: 12_000, writeUnitsPerSecond: 4_000 } as const;

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

/** Amazon SES sends the user pool's emails from a verified identity in the stage's region (`-c sesFromEmail=…`). */
export interface SesSender {
  readonly fromEmail: string;
  /** When SES verified the domain rather than the address (`-c sesVerifiedDomain=example.com`). */
  readonly verifiedDomain?: string;
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
  /** Lambda's own records: at WARN no START/REPORT lines per invocation (shared/function-settings.ts). */
  readonly systemLogLevel: SystemLogLevel;
  /** Per API and per route (`-c petsRateLimit=… -c createPetRateLimit=…`; shared/stage-throttling.ts). */
  readonly throttling: StageThrottling;
  /**
   * Whether the writes get reserved concurrency sized from their throttle (shared/function-settings.ts). Off in
   * dev: a new account's concurrency quota can be too small to reserve any and still keep the 100 Lambda requires unreserved.
   */
  readonly reservedConcurrency: boolean;
  /**
   * `-c statusIndexUpgrade=true`, for a stage deployed before the status index was sharded: the pets table keeps
   * its old index beside the new one, and listPets reads the old one, until the backfill is done (docs/deploy.md).
   */
  readonly statusIndexUpgrade: boolean;
  /**
   * X-Ray active tracing of every function (`-c tracing=true|false`). HTTP APIs cannot trace themselves (X-Ray
   * traces only REST APIs), so a trace starts at the function; the runtime tracer adds the DynamoDB and Cognito calls.
   */
  readonly tracing: boolean;
  /**
   * How a new version of each function takes the live alias's traffic (lib/petstore-deployments.ts), rolling back
   * when the stage's alarms fire; absent, a deploy switches every function at once and there is no alias.
   */
  readonly trafficShift?: ILambdaDeploymentConfig;
  /** Pre-warmed tables (`-c petsWarmWrites=… -c petsWarmReads=… -c messagesWarmWrites=…`); the pets values warm its status index too. */
  readonly warmThroughput: Readonly<Partial<Record<TableKey, WarmThroughput>>>;
  readonly alarms: AlarmConfig;
  /** What the stage may cost in a month (USD) before AWS Budgets tells the alarm topic (lib/petstore-alarms.ts). */
  readonly monthlyBudgetUsd: number;
  /**
   * The stage check (lib/petstore-stage-check.ts): how often it runs, whether its pre-traffic run creates (pets cannot
   * be deleted), how long the hook calls a stage without traffic of its own through a canary. None in dev.
   */
  readonly stageCheck?: { readonly every: Duration; readonly writes: boolean; readonly canaryTraffic?: Duration };
  /** `-c hotfix=true`: this deploy shifts past firing rollback alarms (docs/runbooks.md); never committed. */
  readonly hotfix: boolean;
  /** Subscribed to the alarm topic when set (`-c alarmEmail=ops@example.com`); prod requires it or `none`. */
  readonly alarmEmail?: string;
  /** CORS is configured only when origins are given (`-c corsOrigins=https://a.example,https://b.example`). */
  readonly corsOrigins?: readonly string[];
  /** Stable addresses (`-c petsDomain=… -c messagesDomain=…`, lib/edge-config.ts); execute-api URLs without. */
  readonly domains?: CustomDomains;
  /** CloudFront + AWS WAF in front of both APIs (`-c frontDoor=true`); the APIs refuse requests that bypass it. */
  readonly frontDoor?: FrontDoor;
  readonly userPoolProtection: UserPoolProtection;
  /** Without it Cognito's own sender, whose daily quota suits no production; prod requires it or `cognito`. */
  readonly sesSender?: SesSender;
}

/** What one deploy's context decides, no stage default. */
type PerDeploy = 'statusIndexUpgrade' | 'tracing' | 'hotfix';

type StageDefaults = Omit<
  StageConfig,
  'stage' | 'alarmEmail' | 'corsOrigins' | 'domains' | 'frontDoor' | 'sesSender' | 'warmThroughput' | PerDeploy
> & {
  /** Tracing unless `-c tracing=…` says otherwise. */
  readonly tracingDefault: boolean;
  /** The front door's per-client limits when `-c frontDoor=true` comes without `-c frontDoorRateLimit` / `frontDoorKeyRateLimit`. */
  readonly frontDoorDefaults: FrontDoor;
};

/**
 * A person signs up, asks for a code again or resets a password a few times at most; 10 (WAF's minimum) in
 * 10 minutes leaves them room and holds one client IP to 1,440 emails a day instead of as many as Cognito takes.
 */
const EMAILING_CALLS_PER_CLIENT_IP: RateLimit = { limit: 10, windowSeconds: 600 };

/** Every stage alarms on a single 5-minute window; only the thresholds differ. */
const ONE_FIVE_MINUTE_WINDOW = { period: Duration.minutes(5), evaluationPeriods: 1, datapointsToAlarm: 1 };

/**
 * 10 % of requests to the new version for 10 minutes, then all: the rollback alarms look at one 5-minute period,
 * so the canary must outlast a whole period with its traffic in it plus CloudWatch's delay, or a bad version
 * would take all the traffic before its alarm could fire.
 */
export const TRAFFIC_SHIFT = LambdaDeploymentConfig.CANARY_10PERCENT_10MINUTES;

const STAGE_DEFAULTS: Record<StageName, StageDefaults> = {
  // Throwaway: everything goes with the stack, logs are short-lived, alarms only catch gross breakage.
  dev: {
    removalPolicy: RemovalPolicy.DESTROY,
    deletionProtection: false,
    logRetention: RetentionDays.ONE_WEEK,
    logRemovalPolicy: RemovalPolicy.DESTROY,
    logLevel: 'DEBUG',
    // Cost is no concern at dev's rates, and a developer reading a function's log may want its START/REPORT lines.
    systemLogLevel: 'INFO',
    throttling: STAGE_THROTTLING.dev,
    reservedConcurrency: false,
    // A developer wants the new code at once; traces cost per request and dev has DEBUG logs instead.
    tracingDefault: false,
    alarms: {
      serverErrorRatePercent: 10,
      authorizerErrors: 5,
      tableThrottles: 10,
      unauthorizedRequests: 1_500,
      clientErrors: 3_000,
      throttledRequests: 100,
      ...ONE_FIVE_MINUTE_WINDOW,
    },
    monthlyBudgetUsd: 25,
    frontDoorDefaults: { rateLimit: 300, keyRateLimit: 1_500, rateWindowSeconds: 60 },
    userPoolProtection: { emailingCallsPerClientIp: EMAILING_CALLS_PER_CLIENT_IP, callsPerClientIp: { limit: 100, windowSeconds: 300 } },
  },
  // Rehearses prod: tables are RETAINed so a mistaken `cdk destroy` loses no issued keys or data, but
  // without deletion protection so an operator can still delete them on purpose (docs/deploy.md, Tear down).
  staging: {
    removalPolicy: RemovalPolicy.RETAIN,
    deletionProtection: false,
    logRetention: RetentionDays.ONE_MONTH,
    logRemovalPolicy: RemovalPolicy.DESTROY,
    logLevel: 'INFO',
    systemLogLevel: 'WARN',
    throttling: STAGE_THROTTLING.staging,
    reservedConcurrency: true,
    tracingDefault: true,
    trafficShift: TRAFFIC_SHIFT,
    alarms: {
      serverErrorRatePercent: 5,
      authorizerErrors: 1,
      tableThrottles: 1,
      unauthorizedRequests: 1_500,
      clientErrors: 3_000,
      throttledRequests: 10,
      ...ONE_FIVE_MINUTE_WINDOW,
    },
    monthlyBudgetUsd: 50,
    // Creates in its pre-traffic run, and calls the stage through each canary (its 10 minutes and CloudWatch's delay).
    stageCheck: { every: Duration.minutes(5), writes: true, canaryTraffic: Duration.minutes(12) },
    frontDoorDefaults: { rateLimit: 600, keyRateLimit: 3_000, rateWindowSeconds: 60 },
    userPoolProtection: { emailingCallsPerClientIp: EMAILING_CALLS_PER_CLIENT_IP, callsPerClientIp: { limit: 100, windowSeconds: 300 } },
  },
  // Data outlives the stack and cannot be deleted by accident; a single bad 5-minute window pages.
  prod: {
    removalPolicy: RemovalPolicy.RETAIN,
    deletionProtection: true,
    logRetention: RetentionDays.SIX_MONTHS,
    logRemovalPolicy: RemovalPolicy.RETAIN,
    logLevel: 'INFO',
    systemLogLevel: 'WARN',
    throttling: STAGE_THROTTLING.prod,
    reservedConcurrency: true,
    tracingDefault: true,
    trafficShift: TRAFFIC_SHIFT,
    // 401s: 3 000 in 5 minutes is 10 per second, far above keys mistyped by hand, well below a flood.
    alarms: {
      serverErrorRatePercent: 1,
      authorizerErrors: 1,
      tableThrottles: 1,
      unauthorizedRequests: 3_000,
      clientErrors: 6_000,
      throttledRequests: 10,
      ...ONE_FIVE_MINUTE_WINDOW,
    },
    // Raise it with the stage's traffic: docs/capacity.md prices a million requests.
    monthlyBudgetUsd: 200,
    stageCheck: { every: Duration.minutes(5), writes: false },
    // One key may run on several machines (5 × one address's limit), and still sends at most 100 requests/s.
    frontDoorDefaults: { rateLimit: 1_200, keyRateLimit: 6_000, rateWindowSeconds: 60 },
    // A tab refreshes its 5-minute tokens about once per window; 300 leaves room for an office behind one address.
    userPoolProtection: { emailingCallsPerClientIp: EMAILING_CALLS_PER_CLIENT_IP, callsPerClientIp: { limit: 300, windowSeconds: 300 } },
  },
};

/** `-c alarmEmail=none`: no subscriber, on purpose (the only way to synthesize prod without one). */
export const NO_ALARM_EMAIL = 'none';

function parseEmail(stage: StageName, value: unknown): string | undefined {
  if (value === NO_ALARM_EMAIL) return undefined;
  if (value === undefined || value === '') {
    // Refused rather than warned: a warning scrolls past in a deploy's output, and prod would page nobody.
    if (stage === 'prod') {
      throw new Error(
        `alarmEmail: prod needs -c alarmEmail=<address>, or every alarm fires into a topic nobody reads; ` +
          `pass -c alarmEmail=${NO_ALARM_EMAIL} to deploy prod without a subscriber on purpose`,
      );
    }
    return undefined;
  }
  if (typeof value !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(value))
    throw new Error(`alarmEmail: ${JSON.stringify(value)} is not an email address`);
  return value;
}

/** `-c sesFromEmail=cognito`: Cognito's own sender, on purpose (the only way to synthesize prod without SES). */
export const COGNITO_SENDER = 'cognito';

const EMAIL_ADDRESS = /^[^@\s]+@([^@\s]+)$/;

function parseSesSender(stage: StageName, fromEmail: unknown, verifiedDomain: unknown): SesSender | undefined {
  const domainGiven = verifiedDomain !== undefined && verifiedDomain !== '';
  if (fromEmail === COGNITO_SENDER || fromEmail === undefined || fromEmail === '') {
    if (domainGiven) throw new Error('sesVerifiedDomain: given without -c sesFromEmail, which it is for');
    // Refused like a missing alarmEmail: once the quota is used up (by anyone), nobody can sign up or reset a password.
    if (stage === 'prod' && fromEmail !== COGNITO_SENDER) {
      throw new Error(
        `sesFromEmail: prod needs -c sesFromEmail=<address of an SES identity verified in the stage's region>, or ` +
          `Cognito's own sender sends its emails, about 50 a day for the whole account; ` +
          `pass -c sesFromEmail=${COGNITO_SENDER} to deploy prod with that sender on purpose`,
      );
    }
    return undefined;
  }
  const domain = typeof fromEmail === 'string' ? EMAIL_ADDRESS.exec(fromEmail)?.[1] : undefined;
  if (typeof fromEmail !== 'string' || domain === undefined)
    throw new Error(`sesFromEmail: ${JSON.stringify(fromEmail)} is not an email address`);
  if (!domainGiven) return { fromEmail };
  if (verifiedDomain !== domain) {
    throw new Error(`sesVerifiedDomain: ${JSON.stringify(verifiedDomain)} is not the domain of sesFromEmail ${fromEmail}`);
  }
  return { fromEmail, verifiedDomain };
}

/** Optional settings read from CDK context; unknown types are rejected rather than guessed. */
export interface StageContext extends EdgeContext {
  readonly alarmEmail?: unknown;
  readonly corsOrigins?: unknown;
  readonly sesFromEmail?: unknown;
  readonly sesVerifiedDomain?: unknown;
  readonly petsRateLimit?: unknown;
  readonly petsBurstLimit?: unknown;
  readonly createPetRateLimit?: unknown;
  readonly createPetBurstLimit?: unknown;
  readonly messagesRateLimit?: unknown;
  readonly messagesBurstLimit?: unknown;
  readonly petsWarmReads?: unknown;
  readonly petsWarmWrites?: unknown;
  readonly messagesWarmWrites?: unknown;
  readonly statusIndexUpgrade?: unknown;
  readonly tracing?: unknown;
  readonly hotfix?: unknown;
}

const given = (value: unknown): boolean => value !== undefined && value !== '';

/** A whole number from context (a CLI string or a cdk.json number), at least `min`; undefined when not given. */
function wholeNumber(name: string, value: unknown, min: number, unit: string): number | undefined {
  if (!given(value)) return undefined;
  const parsed = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isSafeInteger(parsed) || parsed < min) {
    throw new Error(`${name}: ${JSON.stringify(value)} is not a whole number of at least ${min.toLocaleString('en-US')} ${unit}`);
  }
  return parsed;
}

function throttleOf(base: ThrottleConfig, name: string, rate: unknown, burst: unknown): ThrottleConfig {
  return {
    rateLimit: wholeNumber(`${name}RateLimit`, rate, 1, 'requests per second') ?? base.rateLimit,
    burstLimit: wholeNumber(`${name}BurstLimit`, burst, 1, 'requests') ?? base.burstLimit,
  };
}

/** The stage's throttles with the context's: the pets and messages APIs' default route, and createPet's own. */
function parseThrottling(defaults: StageThrottling, context: StageContext): StageThrottling {
  const { pets, messages } = defaults;
  const defaultRoute = throttleOf(pets.defaultRoute, 'pets', context.petsRateLimit, context.petsBurstLimit);
  const ownRoute = pets.routes[CREATE_PET_ROUTE_KEY];
  // A stage without a createPet route of its own keeps it on the default route unless the context sets one.
  const createPet =
    ownRoute || given(context.createPetRateLimit) || given(context.createPetBurstLimit)
      ? throttleOf(ownRoute ?? defaultRoute, 'createPet', context.createPetRateLimit, context.createPetBurstLimit)
      : undefined;
  const withCreatePet: ApiThrottling = {
    defaultRoute,
    routes: { ...pets.routes, ...(createPet ? { [CREATE_PET_ROUTE_KEY]: createPet } : {}) },
  };
  return {
    ...defaults,
    pets: withCreatePet,
    messages: {
      ...messages,
      defaultRoute: throttleOf(messages.defaultRoute, 'messages', context.messagesRateLimit, context.messagesBurstLimit),
    },
  };
}

function parseWarmThroughput(context: StageContext): Partial<Record<TableKey, WarmThroughput>> {
  const reads = (name: string, value: unknown) =>
    wholeNumber(name, value, ON_DEMAND_WARM_FLOOR.readUnitsPerSecond, 'read units per second (what a new on-demand table already takes)');
  const writes = (name: string, value: unknown) =>
    wholeNumber(name, value, ON_DEMAND_WARM_FLOOR.writeUnitsPerSecond, 'write units per second (what a new on-demand table already takes)');
  const warm = (readUnits: number | undefined, writeUnits: number | undefined): WarmThroughput | undefined =>
    readUnits === undefined && writeUnits === undefined
      ? undefined
      : {
          ...(readUnits !== undefined ? { readUnitsPerSecond: readUnits } : {}),
          ...(writeUnits !== undefined ? { writeUnitsPerSecond: writeUnits } : {}),
        };
  const pets = warm(reads('petsWarmReads', context.petsWarmReads), writes('petsWarmWrites', context.petsWarmWrites));
  const messages = warm(undefined, writes('messagesWarmWrites', context.messagesWarmWrites));
  return { ...(pets ? { pets } : {}), ...(messages ? { messages } : {}) };
}

/**
 * createPet must stay below what the pets table takes at once, or DynamoDB, not the gateway, turns the excess
 * away: each create is one write to the table and one to its status index (whose write-sharded key spreads
 * them, shared/tables.ts).
 */
function checkCreatePetFitsTable(throttling: StageThrottling, warm: Partial<Record<TableKey, WarmThroughput>>): void {
  const createPet = throttling.pets.routes[CREATE_PET_ROUTE_KEY] ?? throttling.pets.defaultRoute;
  const tableWrites = warm.pets?.writeUnitsPerSecond ?? ON_DEMAND_WARM_FLOOR.writeUnitsPerSecond;
  if (createPet.rateLimit > tableWrites) {
    throw new Error(
      `createPetRateLimit: ${createPet.rateLimit} creates/s is more than the pets table takes at once (${tableWrites} writes/s); ` +
        `pre-warm it with -c petsWarmWrites=${createPet.rateLimit} or more (docs/capacity.md)`,
    );
  }
}

/** Every context key stageConfig reads: bin/app.ts hands over exactly these. */
export const STAGE_CONTEXT_KEYS = [
  'alarmEmail',
  'corsOrigins',
  'petsDomain',
  'messagesDomain',
  'certificateArn',
  'hostedZoneId',
  'hostedZoneName',
  'disableDefaultEndpoint',
  'frontDoor',
  'frontDoorRateLimit',
  'frontDoorKeyRateLimit',
  'sesFromEmail',
  'sesVerifiedDomain',
  'petsRateLimit',
  'petsBurstLimit',
  'createPetRateLimit',
  'createPetBurstLimit',
  'messagesRateLimit',
  'messagesBurstLimit',
  'petsWarmReads',
  'petsWarmWrites',
  'messagesWarmWrites',
  'statusIndexUpgrade',
  'tracing',
  'hotfix',
] as const satisfies readonly (keyof StageContext)[];

export function stageConfig(stage: StageName, context: StageContext = {}): StageConfig {
  const alarmEmail = parseEmail(stage, context.alarmEmail);
  const corsOrigins = parseCorsOrigins(stage, context.corsOrigins);
  const { frontDoorDefaults, tracingDefault, ...defaults } = STAGE_DEFAULTS[stage];
  const frontDoor = parseFrontDoor(context, frontDoorDefaults);
  const domains = parseCustomDomains(context, frontDoor !== undefined);
  const sesSender = parseSesSender(stage, context.sesFromEmail, context.sesVerifiedDomain);
  const throttling = parseThrottling(defaults.throttling, context);
  const warmThroughput = parseWarmThroughput(context);
  checkCreatePetFitsTable(throttling, warmThroughput);
  return {
    stage,
    ...defaults,
    throttling,
    warmThroughput,
    statusIndexUpgrade: flag('statusIndexUpgrade', context.statusIndexUpgrade) ?? false,
    tracing: flag('tracing', context.tracing) ?? tracingDefault,
    hotfix: flag('hotfix', context.hotfix) ?? false,
    ...(alarmEmail ? { alarmEmail } : {}),
    ...(corsOrigins ? { corsOrigins } : {}),
    ...(domains ? { domains } : {}),
    ...(frontDoor ? { frontDoor } : {}),
    ...(sesSender ? { sesSender } : {}),
  };
}
