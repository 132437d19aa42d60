/**
 * What a stage's synthesized templates (the main stack and, for a front door outside us-east-1, its edge stack) hold
 * that the bill counts: alarms and the metrics they watch, metric filters, dashboards, secrets, keys, web ACLs and
 * their rules, distributions, the stage check's schedule, each function's memory, tracing and log retention, and the
 * access logs' format and retention. A pure function of the template JSON: the bench records it in bench/costs.json,
 * and test/infra/stack/costs.ts holds that record to the templates the template tests synthesize.
 */

interface Resource {
  readonly Type: string;
  readonly Properties?: Record<string, unknown>;
}

export interface TemplateJson {
  readonly Resources?: Record<string, Resource>;
}

export interface FunctionInventory {
  readonly memoryMb: number;
  readonly traced: boolean;
  readonly logRetentionDays: number;
}

export interface StageInventory {
  readonly alarms: number;
  /** Standard alarms bill one metric; a metric math alarm one per metric in its expression. */
  readonly alarmMetrics: number;
  /** `{ $.status = "401" }` on an API's access log: the API, the field's value, the metric it publishes. */
  readonly metricFilters: readonly { readonly api: string; readonly status: string; readonly metric: string }[];
  readonly dashboards: number;
  readonly secrets: number;
  readonly kmsKeys: number;
  readonly webAcls: number;
  readonly webAclRules: number;
  /** A web ACL of CloudFront's scope: the front door, which every request of the stage then passes. */
  readonly frontDoor: boolean;
  readonly distributions: number;
  readonly cloudFrontFunctions: number;
  /** The scheduled stage check's runs in 30 days (0 without one). */
  readonly stageCheckRunsPerMonth: number;
  /** By the name each function's description starts with; the stage check is its scheduled function. */
  readonly functions: Readonly<Record<string, FunctionInventory>>;
  readonly accessLogs: Readonly<Record<string, { readonly retentionDays: number }>>;
  /** The access-log format every API's stage writes (one, as lib/petstore-http-api.ts defines it). */
  readonly accessLogFormat: string;
}

const MINUTES_PER_MONTH = 30 * 24 * 60;

const refOf = (value: unknown): string | undefined => {
  if (value && typeof value === 'object') {
    if ('Ref' in value && typeof value.Ref === 'string') return value.Ref;
    if ('Fn::GetAtt' in value && Array.isArray(value['Fn::GetAtt'])) return String(value['Fn::GetAtt'][0]);
  }
  return undefined;
};

const retentionOf = (resources: Record<string, Resource>, id: string | undefined): number =>
  Number(resources[id ?? '']?.Properties?.RetentionInDays ?? 0);

function scheduledRunsPerMonth(expression: string): number {
  const match = /^rate\((\d+) (minute|minutes|hour|hours)\)$/.exec(expression);
  if (!match) throw new Error(`stage check schedule not understood: ${expression}`);
  return MINUTES_PER_MONTH / (Number(match[1]) * (match[2]?.startsWith('hour') ? 60 : 1));
}

export function stageInventory(templates: readonly TemplateJson[]): StageInventory {
  const resources: Record<string, Resource> = Object.fromEntries(templates.flatMap((template) => Object.entries(template.Resources ?? {})));
  const all = Object.entries(resources);
  const ofType = (type: string) => all.filter(([, resource]) => resource.Type === type);
  const props = (resource: Resource) => resource.Properties ?? {};

  const alarms = ofType('AWS::CloudWatch::Alarm');
  const alarmMetrics = alarms.reduce((sum, [, alarm]) => {
    const metrics = props(alarm).Metrics as { MetricStat?: unknown }[] | undefined;
    return sum + (metrics ? metrics.filter((metric) => metric.MetricStat !== undefined).length : 1);
  }, 0);

  const apiOfId = new Map(ofType('AWS::ApiGatewayV2::Api').map(([id, api]) => [id, String(props(api).Name).split('-').pop() ?? '']));
  const accessLogs: Record<string, { retentionDays: number }> = {};
  const apiOfLogGroup = new Map<string, string>();
  const formats = new Set<string>();
  for (const [, stage] of ofType('AWS::ApiGatewayV2::Stage')) {
    const settings = props(stage).AccessLogSettings as { DestinationArn: unknown; Format: string } | undefined;
    if (!settings) continue;
    const api = apiOfId.get(refOf(props(stage).ApiId) ?? '') ?? '?';
    const logGroup = refOf(settings.DestinationArn) ?? '';
    apiOfLogGroup.set(logGroup, api);
    accessLogs[api] = { retentionDays: retentionOf(resources, logGroup) };
    formats.add(settings.Format);
  }
  if (formats.size !== 1) throw new Error(`expected one access-log format, found ${formats.size}`);

  const metricFilters = ofType('AWS::Logs::MetricFilter').map(([, filter]) => {
    const pattern = /^\{ \$\.status = "(\d+)" \}$/.exec(String(props(filter).FilterPattern));
    if (!pattern) throw new Error(`metric filter pattern not understood: ${String(props(filter).FilterPattern)}`);
    const [transformation] = props(filter).MetricTransformations as { MetricName: string }[];
    return {
      api: apiOfLogGroup.get(refOf(props(filter).LogGroupName) ?? '') ?? '?',
      status: pattern[1] ?? '',
      metric: transformation?.MetricName ?? '',
    };
  });

  const rules = ofType('AWS::Events::Rule').filter(([, rule]) => typeof props(rule).ScheduleExpression === 'string');
  const scheduledTargets = new Set(
    rules.flatMap(([, rule]) => (props(rule).Targets as { Arn: unknown }[]).map((target) => refOf(target.Arn))),
  );
  const functions: Record<string, FunctionInventory> = {};
  for (const [id, fn] of ofType('AWS::Lambda::Function')) {
    const name = /^(\w+): /.exec(String(props(fn).Description))?.[1];
    if (name === undefined || (name === 'stageCheck' && !scheduledTargets.has(id))) continue;
    const logging = props(fn).LoggingConfig as { LogGroup?: unknown } | undefined;
    functions[name] = {
      memoryMb: Number(props(fn).MemorySize),
      traced: (props(fn).TracingConfig as { Mode?: string } | undefined)?.Mode === 'Active',
      logRetentionDays: retentionOf(resources, refOf(logging?.LogGroup)),
    };
  }

  const webAcls = ofType('AWS::WAFv2::WebACL');
  return {
    alarms: alarms.length,
    alarmMetrics,
    metricFilters,
    dashboards: ofType('AWS::CloudWatch::Dashboard').length,
    secrets: ofType('AWS::SecretsManager::Secret').length,
    kmsKeys: ofType('AWS::KMS::Key').length,
    webAcls: webAcls.length,
    webAclRules: webAcls.reduce((sum, [, acl]) => sum + (props(acl).Rules as unknown[]).length, 0),
    frontDoor: webAcls.some(([, acl]) => props(acl).Scope === 'CLOUDFRONT'),
    distributions: ofType('AWS::CloudFront::Distribution').length,
    cloudFrontFunctions: ofType('AWS::CloudFront::Function').length,
    stageCheckRunsPerMonth: rules.reduce((sum, [, rule]) => sum + scheduledRunsPerMonth(String(props(rule).ScheduleExpression)), 0),
    functions,
    accessLogs,
    accessLogFormat: [...formats][0] ?? '',
  };
}
