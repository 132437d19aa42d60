import { Stack } from 'aws-cdk-lib';
import { CfnBudget } from 'aws-cdk-lib/aws-budgets';
import {
  Alarm,
  ComparisonOperator,
  MathExpression,
  TreatMissingData,
  type Metric,
  type AlarmProps,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { FilterPattern, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { SubscriptionProtocol, Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription, UrlSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { constructIdOf } from './construct-ids';
import type { PetStoreHttpApi } from './petstore-http-api';
import type { ApiName } from '#shared/routes';
import { EXCESS_AT_LEAST, failureVerdict, JUDGED_AT_LEAST, REFUSAL_MARGIN_PERCENT, refusalVerdict } from './canary-judgement';
import type { StageConfig } from './stage-config';
import type { FunctionName } from '#shared/table-access';
import { TABLES, type TableDefinition, type TableKey } from '#shared/tables';

export interface PetStoreAlarmsProps {
  readonly config: StageConfig;
  readonly apis: Readonly<Record<ApiName, PetStoreHttpApi>>;
  readonly authorizer: IFunction;
  readonly tables: Readonly<Record<TableKey, Table>>;
}

const ABOVE = { comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD };

/** An API's 5xx share in percent, 0 below the minimum counts the canaries' verdicts keep (lib/canary-judgement.ts). */
const API_SERVER_ERROR_RATE = `IF(requests >= ${JUDGED_AT_LEAST} AND errors >= ${EXCESS_AT_LEAST}, 100 * errors / requests, 0)`;

/** HTTP APIs publish 4xx as one metric, so 401 and 429 are counted from the access log (`status` is a string there). */
export const COUNTED_STATUSES = { unauthorized: '401', throttled: '429' } as const;

/**
 * What should wake someone up, all sent to one SNS topic: 5xx, authorizer failures, table throttles, and per API
 * a surge of 401s or 4xx (each bad key still costs two invocations) or of 429s.
 */
export class PetStoreAlarms extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];
  /** The canaries' verdicts, among `alarms`. */
  readonly verdicts: Alarm[] = [];
  /** A gradual deploy of a function behind the API rolls back on it. */
  readonly serverErrorRate: Readonly<Record<ApiName, Alarm>>;
  readonly authorizerErrors: Alarm;
  readonly statusCounts: Readonly<Record<ApiName, { readonly unauthorized: Metric; readonly throttled: Metric }>>;
  private readonly notify: SnsAction;
  private readonly config: StageConfig;

  constructor(scope: Construct, id: string, props: PetStoreAlarmsProps) {
    super(scope, id);
    const { config, apis, authorizer, tables } = props;
    const { period } = config.alarms;

    // Unencrypted on purpose: CloudWatch cannot publish to a topic under the AWS-managed SNS key, and
    // alarm messages carry metric names and thresholds only.
    this.topic = new Topic(this, 'Topic', { displayName: `PetStore ${config.stage} alarms`, enforceSSL: true });
    // The topic policy CDK writes for enforceSSL replaces SNS's default one, so CloudWatch and Budgets need
    // their own grants, limited to this account (no confused deputy).
    const { account, region, partition } = Stack.of(this);
    const allowPublish = (service: string, sourceArn: string, sid?: string) =>
      this.topic.addToResourcePolicy(
        new PolicyStatement({
          ...(sid ? { sid } : {}),
          principals: [new ServicePrincipal(`${service}.amazonaws.com`)],
          actions: ['sns:Publish'],
          resources: [this.topic.topicArn],
          conditions: { StringEquals: { 'aws:SourceAccount': account }, ArnLike: { 'aws:SourceArn': sourceArn } },
        }),
      );
    allowPublish('cloudwatch', `arn:${partition}:cloudwatch:${region}:${account}:alarm:*`, 'AllowThisAccountsAlarmsToPublish');
    if (config.alarmEmail) this.topic.addSubscription(new EmailSubscription(config.alarmEmail));
    if (config.alarmHttpsEndpoint)
      this.topic.addSubscription(new UrlSubscription(config.alarmHttpsEndpoint, { protocol: SubscriptionProtocol.HTTPS }));
    allowPublish('budgets', `arn:${partition}:budgets::${account}:*`);
    this.budget(config);
    this.notify = new SnsAction(this.topic);
    this.config = config;
    const serverErrorRate: Partial<Record<ApiName, Alarm>> = {};
    const statusCounts: Partial<Record<ApiName, { unauthorized: Metric; throttled: Metric }>> = {};
    const alarm = this.add.bind(this);

    for (const [name, api] of Object.entries(apis) as [ApiName, PetStoreHttpApi][]) {
      // A rate, not a count: five failures mean little at 10 000 requests and a lot at ten. With the canaries' minimum
      // counts: at low traffic one 503 is already a few percent, and every deploy rolls back on this alarm too.
      const rate = new MathExpression({
        expression: API_SERVER_ERROR_RATE,
        usingMetrics: { errors: api.stage.metricServerError({ period }), requests: api.stage.metricCount({ period }) },
        period,
        label: `${name} API 5xx rate (%)`,
      });
      serverErrorRate[name] = alarm(
        `${constructIdOf(name)}ApiServerErrorRate`,
        rate,
        config.alarms.serverErrorRatePercent,
        `More than ${config.alarms.serverErrorRatePercent}% of ${name} API requests answered 5xx (at least ${EXCESS_AT_LEAST} of at least ${JUDGED_AT_LEAST} in ${period.toHumanString()}).`,
        ABOVE,
      );

      const statusCount = (metricId: string, status: string) =>
        new MetricFilter(this, `${constructIdOf(name)}Api${metricId}Filter`, {
          logGroup: api.accessLogs,
          filterPattern: FilterPattern.stringValue('$.status', '=', status),
          metricNamespace: `PetStore/${config.stage}`,
          metricName: `${constructIdOf(name)}Api${metricId}`,
          metricValue: '1',
        }).metric({ statistic: 'Sum', period });
      const counts = {
        unauthorized: statusCount('Unauthorized', COUNTED_STATUSES.unauthorized),
        throttled: statusCount('Throttled', COUNTED_STATUSES.throttled),
      };
      statusCounts[name] = counts;
      alarm(
        `${constructIdOf(name)}ApiUnauthorized`,
        counts.unauthorized,
        config.alarms.unauthorizedRequests,
        `The ${name} API answered 401 at least ${config.alarms.unauthorizedRequests} times in ${period.toHumanString()}: a flood of anonymous or invalid keys, or a client with a revoked key (access log: anonymousReason).`,
      );
      alarm(
        `${constructIdOf(name)}ApiClientErrors`,
        api.stage.metricClientError({ period, statistic: 'Sum' }),
        config.alarms.clientErrors,
        `The ${name} API answered 4xx at least ${config.alarms.clientErrors} times in ${period.toHumanString()}.`,
      );
      alarm(
        `${constructIdOf(name)}ApiThrottled`,
        counts.throttled,
        config.alarms.throttledRequests,
        `API Gateway throttled at least ${config.alarms.throttledRequests} requests to the ${name} API in ${period.toHumanString()}: the stage's rate limit turns callers away.`,
      );
    }

    this.authorizerErrors = alarm(
      'AuthorizerErrors',
      authorizer.metricErrors({ period, statistic: 'Sum' }),
      config.alarms.authorizerErrors,
      `The authorizer failed (crash or timeout) at least ${config.alarms.authorizerErrors} times in ${period.toHumanString()}: API Gateway answers 500 to every request it could not authorize.`,
    );

    for (const key of Object.keys(tables) as TableKey[]) {
      alarm(
        `${constructIdOf(key)}TableThrottles`,
        throttleEvents(tables[key], key, period),
        config.alarms.tableThrottles,
        `DynamoDB throttled requests on the ${key} table or its indexes (on-demand: a hot key or an account limit).`,
      );
    }
    this.serverErrorRate = serverErrorRate as Record<ApiName, Alarm>;
    this.statusCounts = statusCounts as Record<ApiName, { unauthorized: Metric; throttled: Metric }>;
  }

  /** The month's costs tagged `stage` (bin/app.ts), once that tag is activated for cost allocation (docs/runbooks.md). */
  private budget(config: StageConfig): void {
    const when = (notificationType: string, threshold: number): CfnBudget.NotificationWithSubscribersProperty => ({
      notification: { notificationType, comparisonOperator: 'GREATER_THAN', threshold, thresholdType: 'PERCENTAGE' },
      subscribers: [{ subscriptionType: 'SNS', address: this.topic.topicArn }],
    });
    new CfnBudget(this, 'Budget', {
      budget: {
        budgetType: 'COST',
        timeUnit: 'MONTHLY',
        budgetLimit: { amount: config.monthlyBudgetUsd, unit: 'USD' },
        costFilters: { TagKeyValue: [`user:stage$${config.stage}`] },
      },
      notificationsWithSubscribers: [when('ACTUAL', 80), when('FORECASTED', 100)],
    });
  }

  /** An alarm at or over `threshold`, told to the topic on alarm and on recovery; no traffic is no incident unless `more` says so. */
  add(id: string, metric: IMetric, threshold: number, description: string, more: Partial<AlarmProps> = {}): Alarm {
    const { evaluationPeriods, datapointsToAlarm } = this.config.alarms;
    const created = new Alarm(this, id, {
      ...{ metric, threshold, comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD },
      ...{ alarmDescription: description, evaluationPeriods, datapointsToAlarm },
      treatMissingData: TreatMissingData.NOT_BREACHING,
      ...more,
    });
    created.addAlarmAction(this.notify);
    created.addOkAction(this.notify);
    this.alarms.push(created);
    return created;
  }

  /**
   * A canary's rollback triggers on its new version against the one it replaces (lib/canary-judgement.ts): crashes,
   * timeouts and 5xx; the authorizer refuses by making callers anonymous, never by failing, so its version also on that.
   */
  newVersion(name: FunctionName, fn: IFunction, version: { readonly version: string }, aliasName: string): Alarm[] {
    const { period, serverErrorRatePercent: percent } = this.config.alarms;
    const judged = { name, functionName: fn.functionName, aliasName, version: version.version, stage: this.config.stage, period };
    const judge = (id: string, verdict: MathExpression, description: string) => this.add(id, verdict, 1, description);
    const alarms = [
      judge(
        `${constructIdOf(name)}NewVersionFailures`,
        failureVerdict(judged, percent),
        `${name}'s newest version crashed, timed out or answered 5xx on more than ${percent}% of the requests its predecessor's share says would have gone well (at least ${EXCESS_AT_LEAST} more, of at least ${JUDGED_AT_LEAST}).`,
      ),
    ];
    this.verdicts.push(...alarms);
    if (name !== 'authorizer') return alarms;
    const refusing = `The authorizer's newest version left callers anonymous (401): more than ${REFUSAL_MARGIN_PERCENT}% of those its predecessor's share says it would have admitted (at least ${EXCESS_AT_LEAST} more, of at least ${JUDGED_AT_LEAST}).`;
    const refusals = judge('AuthorizerNewVersionRefusals', refusalVerdict(judged), refusing);
    this.verdicts.push(refusals);
    return [...alarms, refusals];
  }
}

/** A table's read and write throttle events with its indexes', summed; `idPrefix` keeps ids apart on a shared graph. */
export function throttleEvents(table: Table, key: TableKey, period: MathExpression['period'], idPrefix = ''): MathExpression {
  const indexNames = ((TABLES[key] as TableDefinition).globalSecondaryIndexes ?? []).map((index) => index.indexName);
  const usingMetrics: Record<string, Metric> = {};
  for (const metricName of ['ReadThrottleEvents', 'WriteThrottleEvents']) {
    usingMetrics[`${idPrefix}table${metricName}`] = table.metric(metricName, { period, statistic: 'Sum' });
    indexNames.forEach((indexName, position) => {
      usingMetrics[`${idPrefix}index${position}${metricName}`] = table.metric(metricName, {
        period,
        statistic: 'Sum',
        dimensionsMap: { TableName: table.tableName, GlobalSecondaryIndexName: indexName },
      });
    });
  }
  return new MathExpression({
    expression: Object.keys(usingMetrics)
      .map((metricId) => `FILL(${metricId}, 0)`)
      .join(' + '),
    usingMetrics,
    period,
    label: `${key} table throttle events`,
  });
}
