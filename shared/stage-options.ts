/**
 * A stage's options: config/<stage>.json, each overridable for one deploy by `-c key=value` (strings, where the files
 * hold JSON numbers and booleans), read and checked here for lib/stage-config.ts, the local server and `npm run doctor`.
 * No aws-cdk-lib import here on purpose.
 */
import dev from '../config/dev.json' with { type: 'json' };
import prod from '../config/prod.json' with { type: 'json' };
import staging from '../config/staging.json' with { type: 'json' };
import type { StageName } from './stages';

const COMMITTED: Record<StageName, Readonly<Record<string, unknown>>> = { dev, staging, prod };
export const stageFileOf = (stage: StageName): string => `config/${stage}.json`;

/** `"<…>"`: a value the committed example cannot know (prod's alarm address, its sender); a deploy refuses it. */
export const PLACEHOLDER = /^<.*>$/;

/** What a new on-demand table or index takes at once without pre-warming: warm throughput below it buys nothing. */
export const ON_DEMAND_WARM_FLOOR = { readUnitsPerSecond: 12_000, writeUnitsPerSecond: 4_000 } as const;
/** AWS WAF's smallest rate-based limit. */
export const MIN_RATE_LIMIT = 10;

type Reader<T> = (name: string, value: unknown) => T;
const refuse = (name: string, value: unknown, what: string): never => {
  throw new Error(`${name}: ${JSON.stringify(value)} is ${what}`);
};
const flag: Reader<boolean> = (name, value) =>
  value === true || value === 'true' ? true : value === false || value === 'false' ? false : refuse(name, value, 'neither true nor false');
const count =
  (min: number, unit: string): Reader<number> =>
  (name, value) => {
    const parsed = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : NaN;
    return Number.isSafeInteger(parsed) && parsed >= min
      ? parsed
      : refuse(name, value, `not a whole number of at least ${min.toLocaleString('en-US')} ${unit}`);
  };
const oneOf =
  <T extends string>(...choices: T[]): Reader<T> =>
  (name, value) =>
    choices.includes(value as T) ? (value as T) : refuse(name, value, `not one of ${choices.join(', ')}`);
const matching =
  (pattern: RegExp, what: string): Reader<string> =>
  (name, value) =>
    typeof value === 'string' && pattern.test(value.trim()) ? value.trim() : refuse(name, value, `not ${what}`);
/** An address, the opt-out word, or the committed placeholder (which only the doctor reads past). */
const emailOr = (optOut: string): Reader<string> =>
  matching(new RegExp(`^([^@\\s]+@[^@\\s]+|${optOut}|${PLACEHOLDER.source.slice(1, -1)})$`), `an email address (or ${optOut})`);
const hostname = matching(
  /^(?=.{4,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
  'a domain name (lower case, e.g. api.example.com; no scheme, path or wildcard)',
);
const requests = count(1, 'requests');
const perSecond = count(1, 'requests per second');
const perPeriod = count(1, 'per 5-minute period');
const warmReads = count(ON_DEMAND_WARM_FLOOR.readUnitsPerSecond, 'read units per second (what a new on-demand table already takes)');
const warmWrites = count(ON_DEMAND_WARM_FLOOR.writeUnitsPerSecond, 'write units per second (what a new on-demand table already takes)');
const wafLimit = count(MIN_RATE_LIMIT, 'requests (AWS WAF counts per window)');
const anything: Reader<unknown> = (_name, value) => value;

/** The keys every stage file holds; docs/deploy-reference.md says what each one does. */
const REQUIRED = {
  retainData: flag,
  deletionProtection: flag,
  terminationProtection: flag,
  logRetentionDays: count(1, 'days'),
  retainLogs: flag,
  logLevel: oneOf('DEBUG', 'INFO', 'WARN', 'ERROR'),
  systemLogLevel: oneOf('DEBUG', 'INFO', 'WARN'),
  tracing: flag,
  canaryDeploys: flag,
  reservedConcurrency: flag,
  alarmEmail: emailOr('none'),
  alarmServerErrorRatePercent: count(1, 'percent'),
  alarmAuthorizerErrors: perPeriod,
  alarmTableThrottles: perPeriod,
  alarmUnauthorizedRequests: perPeriod,
  alarmClientErrors: perPeriod,
  alarmThrottledRequests: perPeriod,
  petsRateLimit: perSecond,
  petsBurstLimit: requests,
  messagesRateLimit: perSecond,
  messagesBurstLimit: requests,
  accountRateLimit: perSecond,
  accountBurstLimit: requests,
  frontDoor: flag,
  frontDoorRateLimit: wafLimit,
  frontDoorKeyRateLimit: wafLimit,
  userPoolCallsPerClientIp: wafLimit,
  sesFromEmail: emailOr('cognito'),
  monthlyBudgetUsd: count(1, 'US dollars'),
};

/** Keys a stage may leave out: what they add does not exist without them. */
const OPTIONAL = {
  /** Checked with the stage by shared/cors.ts. */
  corsOrigins: anything,
  createPetRateLimit: perSecond,
  createPetBurstLimit: requests,
  sideRouteRateLimit: perSecond,
  sideRouteBurstLimit: requests,
  petsWarmReads: warmReads,
  petsWarmWrites: warmWrites,
  messagesWarmWrites: warmWrites,
  petsDomain: hostname,
  messagesDomain: hostname,
  certificateArn: matching(/^arn:aws[a-z-]*:acm:[a-z]{2}(-[a-z]+)+-\d:\d{12}:certificate\/[0-9a-f-]{36}$/, 'an ACM certificate ARN'),
  hostedZoneId: matching(/^Z[A-Z0-9]{1,31}$/, 'a Route 53 zone id (Z…)'),
  hostedZoneName: hostname,
  disableDefaultEndpoint: flag,
  sesVerifiedDomain: hostname,
  /** The stage check's schedule (lib/petstore-stage-check.ts); none without it. */
  stageCheckMinutes: count(1, 'minutes'),
  stageCheckWrites: flag,
  canaryTrafficMinutes: count(1, 'minutes'),
  /** Besides or instead of alarmEmail: an HTTPS endpoint (a chat webhook's relay) the alarm topic posts to. */
  alarmHttpsEndpoint: matching(/^https:\/\/[^\s/?#]+\.[^\s]*$/, 'an https:// URL'),
  /** `control-tower`: templates that pass AWS Control Tower's proactive controls (docs/compliance.md); default none. */
  compliance: oneOf('none', 'control-tower'),
  /** Never in a file: one deploy's way past firing rollback alarms (docs/runbooks.md). */
  hotfix: flag,
};

/** Options that may only be given for one deploy. */
const PER_DEPLOY = ['hotfix'];

type Required = typeof REQUIRED;
type Optional = typeof OPTIONAL;
export type StageOptions = { readonly [K in keyof Required]: ReturnType<Required[K]> } & {
  readonly [K in keyof Optional]: ReturnType<Optional[K]> | undefined;
};
export type OptionName = keyof StageOptions;
export const OPTION_NAMES = [...Object.keys(REQUIRED), ...Object.keys(OPTIONAL)].sort() as OptionName[];

/** Overrides as CDK hands them over: `-c` strings, or values of any type from a test. */
export type StageOverrides = Readonly<Partial<Record<OptionName, unknown>>>;

export interface StageOptionsRead {
  readonly options: StageOptions;
  /** Keys whose value is still the committed placeholder. */
  readonly placeholders: readonly OptionName[];
}

/** The stage's committed options with the overrides on top; unknown keys and bad values are refused. */
export function readStageOptions(stage: StageName, overrides: StageOverrides = {}): StageOptionsRead {
  const committed = PER_DEPLOY.filter((key) => key in COMMITTED[stage]);
  if (committed.length > 0)
    throw new Error(`${committed.join(', ')}: ${stageFileOf(stage)} may not hold it; give it for one deploy with -c`);
  const values: Record<string, unknown> = { ...COMMITTED[stage], ...overrides };
  const unknown = Object.keys(values).filter((key) => !(OPTION_NAMES as string[]).includes(key));
  if (unknown.length > 0) {
    const named = unknown.map((key) => `${key} (${key in overrides ? '-c' : stageFileOf(stage)})`);
    throw new Error(`unknown option ${named.join(', ')}; the options are: ${OPTION_NAMES.join(', ')}`);
  }
  const read = (readers: Record<string, Reader<unknown>>, required: boolean) =>
    Object.entries(readers).map(([key, reader]) => {
      const value = values[key];
      if (value !== undefined && value !== '') return [key, reader(key, value)];
      if (required) throw new Error(`${key}: missing from ${stageFileOf(stage)} (docs/deploy-reference.md says what it takes)`);
      return [key, undefined];
    });
  return {
    options: Object.fromEntries([...read(REQUIRED, true), ...read(OPTIONAL, false)]) as StageOptions,
    placeholders: OPTION_NAMES.filter((key) => typeof values[key] === 'string' && PLACEHOLDER.test(values[key])),
  };
}
