import { Duration, Stack } from 'aws-cdk-lib';
import {
  AlarmStatusWidget,
  Dashboard,
  GraphWidget,
  LogQueryVisualizationType,
  LogQueryWidget,
  MathExpression,
  Metric,
  Stats,
  TextWidget,
  type IAlarm,
  type IMetric,
  type IWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { throttleEvents } from './petstore-alarms';
import type { PetStoreHttpApi } from './petstore-http-api';
import type { StageConfig } from './stage-config';
import { BUSINESS_METRICS, METRICS_NAMESPACE, OPERATION_DIMENSION, OPERATION_METRICS, type MetricDefinition } from '#shared/metrics';
import type { ApiName } from '#shared/routes';
import type { FunctionName } from '#shared/table-access';
import { PETS_STATUS_INDEX, type TableKey } from '#shared/tables';

export interface PetStoreDashboardProps {
  readonly config: StageConfig;
  readonly apis: Readonly<Record<ApiName, PetStoreHttpApi>>;
  readonly statusCounts: Readonly<Record<ApiName, { readonly unauthorized: Metric; readonly throttled: Metric }>>;
  /** Each function itself, not its alias: its metrics then cover every version. */
  readonly functions: ReadonlyMap<FunctionName, { readonly function: IFunction; readonly logGroup: ILogGroup }>;
  readonly tables: Readonly<Record<TableKey, Table>>;
  readonly alarms: readonly IAlarm[];
  /** Of those, the canaries' verdicts (lib/canary-judgement.ts), shown in a row of their own. */
  readonly verdicts?: readonly IAlarm[];
  /** The scheduled stage check (lib/petstore-stage-check.ts), where the stage has one. */
  readonly stageCheck?: IFunction;
  /** The user pool, its portal client, and the metric name of its web ACL (lib/petstore-identity.ts). */
  readonly identity: { readonly userPoolId: string; readonly clientId: string; readonly webAclMetricName: string };
}

const PERIOD = Duration.minutes(5);
const HALF = 12;
const THIRD = 8;
const HEIGHT = 6;

/** The dimension naming the stage, should shared/metrics.ts declare one. */
const STAGE_DIMENSION = 'Stage';

/** The service's own metrics (shared/metrics.ts) by SEARCH over their declared dimensions: one line per operation or status. */
function searchOf(metric: MetricDefinition, statistic: string, label: string, stage: string): MathExpression {
  const schema = [METRICS_NAMESPACE, ...metric.dimensions].join(',');
  // Stages may share an account: where the metric says its stage, only this one's.
  const ownStage = metric.dimensions.includes(STAGE_DIMENSION) ? ` ${STAGE_DIMENSION}="${stage}"` : '';
  return new MathExpression({
    expression: `SEARCH('{${schema}} MetricName="${metric.name}"${ownStage}', '${statistic}', ${PERIOD.toSeconds()})`,
    usingMetrics: {},
    period: PERIOD,
    label,
  });
}

/**
 * What an on-call engineer opens first, one per stage: every alarm's state, then the APIs, the functions, the
 * tables and the service's own counts, top to bottom in the order a request meets them.
 */
export class PetStoreDashboard extends Construct {
  readonly dashboard: Dashboard;
  /** The dashboard in the CloudWatch console of the stack's region. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: PetStoreDashboardProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const { config, apis, statusCounts, functions, tables } = props;
    // Named after the stack, so the console lists one per stage; unique per account and region, like the stack.
    const dashboardName = stack.stackName;
    this.dashboard = new Dashboard(this, 'Dashboard', { dashboardName, defaultInterval: Duration.hours(3) });
    this.url = `https://console.aws.amazon.com/cloudwatch/home?region=${stack.region}#dashboards/dashboard/${dashboardName}`;

    const graph = (width: number, title: string, left: IMetric[], right?: IMetric[]) =>
      new GraphWidget({ title, left, ...(right ? { right } : {}), width, height: HEIGHT });
    const rows: IWidget[][] = [];
    const verdicts = new Set(props.verdicts ?? []);
    const status = (title: string, alarms: IAlarm[]) => new AlarmStatusWidget({ title, alarms, width: 24, height: HEIGHT });
    rows.push([
      status(
        'Alarms',
        props.alarms.filter((alarm) => !verdicts.has(alarm)),
      ),
    ]);
    // During a deploy: each new version judged against the one it replaces (docs/runbooks.md, When a canary is judged).
    if (verdicts.size > 0) rows.push([status('Canary verdicts: new version against the old (OK below 20 requests)', [...verdicts])]);

    const apiEntries = Object.entries(apis) as [ApiName, PetStoreHttpApi][];
    const perApi = (metric: (name: ApiName, api: PetStoreHttpApi) => IMetric | IMetric[]): IMetric[] =>
      apiEntries.flatMap(([name, api]) => metric(name, api));
    rows.push([
      graph(
        THIRD,
        'API requests',
        perApi((name, api) => api.stage.metricCount({ period: PERIOD, statistic: Stats.SUM, label: name })),
      ),
      graph(
        THIRD,
        'API latency p50 / p99 (ms)',
        perApi((name, api) =>
          [Stats.p(50), Stats.p(99)].map((statistic) =>
            api.stage.metricLatency({ period: PERIOD, statistic, label: `${name} ${statistic}` }),
          ),
        ),
      ),
      graph(
        THIRD,
        'API answers 4xx, 5xx and 429',
        perApi((name, api) => [
          api.stage.metricClientError({ period: PERIOD, statistic: Stats.SUM, label: `${name} 4xx` }),
          api.stage.metricServerError({ period: PERIOD, statistic: Stats.SUM, label: `${name} 5xx` }),
        ]),
        perApi((name) => statusCounts[name].throttled.with({ label: `${name} 429` })),
      ),
    ]);

    const fns = [...functions];
    const perFunction = (metric: (fn: IFunction) => Metric): IMetric[] =>
      fns.map(([name, { function: fn }]) => metric(fn).with({ label: name }));
    rows.push([
      graph(
        HALF,
        'Function duration p99 (ms)',
        perFunction((fn) => fn.metricDuration({ period: PERIOD, statistic: Stats.p(99) })),
      ),
      graph(
        HALF,
        'Function errors (crashes and timeouts) and throttles',
        perFunction((fn) => fn.metricErrors({ period: PERIOD, statistic: Stats.SUM })),
        perFunction((fn) => fn.metricThrottles({ period: PERIOD, statistic: Stats.SUM })),
      ),
    ]);
    rows.push([
      graph(
        HALF,
        'Concurrent executions (max)',
        perFunction((fn) => fn.metric('ConcurrentExecutions', { period: PERIOD, statistic: Stats.MAXIMUM })),
      ),
      this.initDuration(
        config,
        fns.map(([, { logGroup }]) => logGroup),
      ),
    ]);

    const tableEntries = Object.entries(tables) as [TableKey, Table][];
    const statusIndex = { TableName: tables.pets.tableName, GlobalSecondaryIndexName: PETS_STATUS_INDEX };
    // Each table's consumed units, and the status index's apart (its capacity is its own).
    const consumed = (kind: 'Read' | 'Write') => [
      ...tableEntries.map(([key, table]) =>
        table.metric(`Consumed${kind}CapacityUnits`, { period: PERIOD, statistic: Stats.SUM, label: key }),
      ),
      tables.pets.metric(`Consumed${kind}CapacityUnits`, {
        period: PERIOD,
        statistic: Stats.SUM,
        dimensionsMap: statusIndex,
        label: `pets ${PETS_STATUS_INDEX}`,
      }),
    ];
    rows.push([
      graph(HALF, 'Consumed capacity units (reads left, writes right)', consumed('Read'), consumed('Write')),
      graph(
        HALF,
        'Throttle events, each table with its indexes',
        tableEntries.map(([key, table]) => throttleEvents(table, key, PERIOD, key)),
      ),
    ]);

    const { Requests, Errors, Latency, ColdStarts } = OPERATION_METRICS;
    const search = (metric: MetricDefinition, statistic: string, label: string) => [searchOf(metric, statistic, label, config.stage)];
    const byOperation = `by ${OPERATION_DIMENSION}`;
    rows.push([
      graph(
        THIRD,
        'Operations: requests and errors',
        search(Requests, Stats.SUM, `Requests ${byOperation}`),
        search(Errors, Stats.SUM, `Errors ${byOperation}`),
      ),
      graph(THIRD, 'Operations: latency p99 (ms)', search(Latency, Stats.p(99), `Latency ${byOperation}`)),
      graph(THIRD, 'Operations: cold starts', search(ColdStarts, Stats.SUM, `ColdStarts ${byOperation}`)),
    ]);
    const { PetsCreated, MessagesQueued, KeysIssued, KeysRevoked } = BUSINESS_METRICS;
    rows.push([
      graph(HALF, 'Pets created, by status', search(PetsCreated, Stats.SUM, 'PetsCreated')),
      graph(
        HALF,
        'Messages queued, keys issued and revoked',
        [MessagesQueued, KeysIssued, KeysRevoked].flatMap((metric) => search(metric, Stats.SUM, metric.name)),
      ),
    ]);
    rows.push(this.outside(props, stack.region));
    for (const row of rows) this.dashboard.addWidgets(...row);
  }

  /** The stage from outside: the stage check's runs, what WAF blocked before Cognito, Cognito's own counts. */
  private outside({ stageCheck, identity }: PetStoreDashboardProps, region: string): IWidget[] {
    const sum = (namespace: string, metricName: string, dimensionsMap: Record<string, string>) =>
      new Metric({ namespace, metricName, dimensionsMap, period: PERIOD, statistic: Stats.SUM, label: metricName });
    const waf = { WebACL: identity.webAclMetricName, Region: region, Rule: 'ALL' };
    const pool = { UserPool: identity.userPoolId, UserPoolClient: identity.clientId };
    const graph = (title: string, left: IMetric[]) => new GraphWidget({ title, left, width: stageCheck ? THIRD : HALF, height: HEIGHT });
    return [
      ...(stageCheck ? [graph('Stage check: runs and failed runs', [stageCheck.metricInvocations(), stageCheck.metricErrors()])] : []),
      graph(
        "User pool's web ACL: allowed and blocked calls",
        ['AllowedRequests', 'BlockedRequests'].map((name) => sum('AWS/WAFV2', name, waf)),
      ),
      graph(
        'Cognito: sign-ups, sign-ins and their throttles',
        ['SignUpSuccesses', 'SignInSuccesses', 'SignUpThrottles', 'SignInThrottles'].map((name) => sum('AWS/Cognito', name, pool)),
      ),
    ];
  }

  /**
   * Init duration is only in REPORT records (Lambda Insights' extension lengthens every cold start and bills per
   * function); stages that drop them (lib/stage-config.ts systemLogLevel) show cold starts as a count and in traces.
   */
  private initDuration(config: StageConfig, logGroups: readonly ILogGroup[]): IWidget {
    if (config.systemLogLevel === 'WARN') {
      return new TextWidget({
        markdown: [
          '### Init duration',
          "This stage drops Lambda's REPORT records, the only place init duration is written (system log level WARN).",
          "Cold starts per operation are counted below (`ColdStarts`); with tracing on, each cold start's trace shows its `Initialization` segment.",
        ].join('\n\n'),
        width: HALF,
        height: HEIGHT,
      });
    }
    return new LogQueryWidget({
      title: 'Init duration of cold starts (ms, from REPORT records)',
      logGroupNames: logGroups.map((group) => group.logGroupName),
      queryLines: [
        'filter type = "platform.report" and ispresent(record.metrics.initDurationMs)',
        'stats count(*) as coldStarts, avg(record.metrics.initDurationMs) as avgInitMs, max(record.metrics.initDurationMs) as maxInitMs by bin(5m)',
      ],
      view: LogQueryVisualizationType.LINE,
      width: HALF,
      height: HEIGHT,
    });
  }
}
