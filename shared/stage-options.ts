/**
 * A stage's options: config/<stage>.json, each overridable for one deploy by `-c key=value` (strings, where the files
 * hold JSON numbers and booleans), checked by one zod schema for lib/stage-config.ts, the local server and `npm run doctor`.
 * No aws-cdk-lib import here on purpose.
 */
import { z } from 'zod';
import dev from '../config/dev.json' with { type: 'json' };
import prod from '../config/prod.json' with { type: 'json' };
import staging from '../config/staging.json' with { type: 'json' };
import { CANARY_TRAFFIC_MAX_MINUTES } from './stage-check';
import type { StageName } from './stages';

const COMMITTED: Record<StageName, Readonly<Record<string, unknown>>> = { dev, staging, prod };
export const stageFileOf = (stage: StageName): string => `config/${stage}.json`;

/** `"<…>"`: a value the committed example cannot know (prod's alarm address, its sender); a deploy refuses it. */
export const PLACEHOLDER = /^<.*>$/;

/** What a new on-demand table or index takes at once without pre-warming: warm throughput below it buys nothing. */
export const ON_DEMAND_WARM_FLOOR = { readUnitsPerSecond: 12_000, writeUnitsPerSecond: 4_000 } as const;
/** DynamoDB's default quota per on-demand table, for reads and for writes: the most a table can be warmed to. */
const TABLE_MAX_UNITS_PER_SECOND = 40_000;
/** API Gateway's default account throttle (requests per second, every API of the Region together; the doctor checks the sum). */
const API_GATEWAY_MAX_RPS = 10_000;
/** What a route at that throttle could send in one 5-minute alarm period: a threshold above it could never fire. */
const MAX_PER_PERIOD = API_GATEWAY_MAX_RPS * 300;
/** AWS WAF's smallest and largest rate-based limits. */
const WAF_LIMITS = [10, 2_000_000_000] as const;
/** The retentions CloudWatch Logs offers, in days. */
const RETENTION_DAYS = [1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653] as const;

/** `-c` hands over text: "true" and "2000" mean what `true` and `2000` mean in a file. */
const fromText = (value: unknown): unknown =>
  value === 'true' ? true : value === 'false' ? false : typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
const flag = z.preprocess(fromText, z.boolean({ error: 'neither true nor false' }));
const count = (min: number, max: number, unit: string) => {
  const error = `not a whole number of at least ${min.toLocaleString('en-US')} ${unit}, at most ${max.toLocaleString('en-US')}`;
  return z.preprocess(fromText, z.int({ error }).min(min, { error }).max(max, { error }));
};
const oneOf = <const T extends [string, ...string[]]>(...choices: T) => z.enum(choices, { error: `not one of ${choices.join(', ')}` });
const matching = (pattern: RegExp, what: string, error = `not ${what}`) => z.string({ error }).trim().regex(pattern, { error });
/** An address, the opt-out word, or the committed placeholder (which only the doctor reads past). */
const emailOr = (optOut: string) =>
  matching(new RegExp(`^([^@\\s]+@[^@\\s]+|${optOut}|${PLACEHOLDER.source.slice(1, -1)})$`), `an email address (or ${optOut})`);
const hostname = matching(
  /^(?=.{4,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
  'a domain name (lower case, e.g. api.example.com; no scheme, path or wildcard)',
);
const certificateArn = matching(/^arn:aws[a-z-]*:acm:[a-z]{2}(-[a-z]+)+-\d:\d{12}:certificate\/[0-9a-f-]{36}$/, 'an ACM certificate ARN');
const perSecond = count(1, API_GATEWAY_MAX_RPS, 'requests per second');
const burst = count(1, API_GATEWAY_MAX_RPS, 'requests');
const perPeriod = count(1, MAX_PER_PERIOD, 'per 5-minute period');
const warm = (floor: number, units: 'read' | 'write') =>
  count(floor, TABLE_MAX_UNITS_PER_SECOND, `${units} units per second (what a new on-demand table already takes)`).optional();
const retention = z.literal(RETENTION_DAYS, { error: `not a retention CloudWatch Logs offers (${RETENTION_DAYS.join(', ')})` });
const wafLimit = count(...WAF_LIMITS, 'requests (AWS WAF counts per window)');

/** Every option; docs/deploy-reference.md says what each one does. An optional one adds what does not exist without it. */
const STAGE_OPTIONS = z.strictObject({
  retainData: flag,
  deletionProtection: flag,
  terminationProtection: flag,
  logRetentionDays: z.preprocess(fromText, retention),
  retainLogs: flag,
  logLevel: oneOf('DEBUG', 'INFO', 'WARN', 'ERROR'),
  systemLogLevel: oneOf('DEBUG', 'INFO', 'WARN'),
  tracing: flag,
  canaryDeploys: flag,
  reservedConcurrency: flag,
  alarmEmail: emailOr('none'),
  alarmServerErrorRatePercent: count(1, 100, 'percent'),
  alarmAuthorizerErrors: perPeriod,
  alarmTableThrottles: perPeriod,
  alarmUnauthorizedRequests: perPeriod,
  alarmClientErrors: perPeriod,
  alarmThrottledRequests: perPeriod,
  petsRateLimit: perSecond,
  petsBurstLimit: burst,
  messagesRateLimit: perSecond,
  messagesBurstLimit: burst,
  accountRateLimit: perSecond,
  accountBurstLimit: burst,
  frontDoor: flag,
  frontDoorRateLimit: wafLimit,
  frontDoorKeyRateLimit: wafLimit,
  userPoolCallsPerClientIp: wafLimit,
  sesFromEmail: emailOr('cognito'),
  monthlyBudgetUsd: count(1, 1_000_000, 'US dollars'),
  /** Checked with the stage by shared/cors.ts. */
  corsOrigins: z.unknown().optional(),
  createPetRateLimit: perSecond.optional(),
  createPetBurstLimit: burst.optional(),
  sideRouteRateLimit: perSecond.optional(),
  sideRouteBurstLimit: burst.optional(),
  petsWarmReads: warm(ON_DEMAND_WARM_FLOOR.readUnitsPerSecond, 'read'),
  petsWarmWrites: warm(ON_DEMAND_WARM_FLOOR.writeUnitsPerSecond, 'write'),
  messagesWarmWrites: warm(ON_DEMAND_WARM_FLOOR.writeUnitsPerSecond, 'write'),
  petsDomain: hostname.optional(),
  messagesDomain: hostname.optional(),
  certificateArn: certificateArn.optional(),
  hostedZoneId: matching(/^Z[A-Z0-9]{1,31}$/, 'a Route 53 zone id (Z…)').optional(),
  hostedZoneName: hostname.optional(),
  disableDefaultEndpoint: flag.optional(),
  sesVerifiedDomain: hostname.optional(),
  /** The stage check's schedule (lib/petstore-stage-check.ts); none without it. Its alarm looks at 3 periods. */
  stageCheckMinutes: count(1, 60, 'minutes').optional(),
  stageCheckWrites: flag.optional(),
  canaryTrafficMinutes: count(1, CANARY_TRAFFIC_MAX_MINUTES, 'minutes (the pre-traffic check must end within Lambda’s 15)').optional(),
  /** Besides or instead of alarmEmail: an HTTPS endpoint (a chat webhook's relay) the alarm topic posts to. */
  alarmHttpsEndpoint: matching(/^https:\/\/[^\s/?#]+\.[^\s]*$/, 'an https:// URL').optional(),
  /** `control-tower`: templates that pass AWS Control Tower's proactive controls (docs/compliance.md); default none. */
  compliance: oneOf('none', 'control-tower').optional(),
  /** Never in a file: one deploy's way past firing rollback alarms (docs/runbooks.md). */
  hotfix: flag.optional(),
});

export type StageOptions = Readonly<z.output<typeof STAGE_OPTIONS>>;
export type OptionName = keyof StageOptions;
export const OPTION_NAMES = STAGE_OPTIONS.keyof().options.toSorted();

/** Overrides as CDK hands them over: `-c` strings, or values of any type from a test. */
export type StageOverrides = Readonly<Partial<Record<OptionName, unknown>>>;

/**
 * The stage's committed options with the overrides on top (an empty one unsets), and the keys still holding the
 * placeholder; unknown keys, bad values and a per-deploy option (hotfix) in the file are refused.
 */
export function readStageOptions(stage: StageName, overrides: StageOverrides = {}): { options: StageOptions; placeholders: OptionName[] } {
  const committed = ['hotfix'].filter((key) => key in COMMITTED[stage]);
  if (committed.length > 0)
    throw new Error(`${committed.join(', ')}: ${stageFileOf(stage)} may not hold it; give it for one deploy with -c`);
  const values = Object.fromEntries(Object.entries({ ...COMMITTED[stage], ...overrides }).filter(([, value]) => value !== ''));
  const parsed = STAGE_OPTIONS.safeParse(values);
  if (!parsed.success) {
    const source = (key: string) => (key in overrides ? '-c' : stageFileOf(stage));
    const problem = (issue: z.core.$ZodIssue): string => {
      if (issue.code === 'unrecognized_keys') {
        const named = issue.keys.map((key) => `${key} (${source(key)})`);
        return `unknown option ${named.join(', ')}; the options are: ${OPTION_NAMES.join(', ')}`;
      }
      const key = String(issue.path[0]);
      return key in values
        ? `${key}: ${JSON.stringify(values[key])} is ${issue.message} (${source(key)})`
        : `${key}: missing from ${stageFileOf(stage)} (docs/deploy-reference.md says what it takes)`;
    };
    throw new Error(parsed.error.issues.map(problem).join('\n'));
  }
  return {
    options: parsed.data,
    placeholders: OPTION_NAMES.filter((key) => typeof values[key] === 'string' && PLACEHOLDER.test(values[key])),
  };
}

/** `-c key=value` as the CDK CLI reads it: split at the first `=`. One it would drop with a warning is refused instead. */
export function overridesOf(assignments: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    assignments.map((assignment) => {
      const [key, value] = assignment.split(/=(.*)/s, 2);
      if (!key || value === undefined) throw new Error(`-c ${assignment}: not key=value (cdk would ignore it)`);
      return [key, value];
    }),
  );
}
