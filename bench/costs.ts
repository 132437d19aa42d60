/**
 * Part 7: dollars. A pure function of what the bench measured (cost-inputs.ts: each request's invocations, their
 * duration and log lines, its access-log line, its answer's bytes, its capacity units; one run of the stage check) and
 * of what each stage's template holds (stage-inventory.ts), at the list prices of prices.ts. `npm run bench` prints it;
 * --write-results records its inputs in bench/costs.json, from which test/unit/cost-docs.test.ts holds the docs' figures.
 */
import type { StageName } from '#shared/stages';
import { PRICES, tiered } from './prices';
import type { Table } from './report';
import type { StageInventory } from './stage-inventory';

/** One function's share of a request: its billed milliseconds (local wall time, rounded up) and its log bytes. */
export interface Invocation {
  readonly fn: string;
  readonly ms: number;
  readonly logBytes: number;
}

export interface MeasuredRequest {
  readonly invocations: readonly Invocation[];
  /** The access-log line as API Gateway writes it with the stage's format, with a browser's and with the SDK's User-Agent. */
  readonly accessLogBytes: { readonly browser: number; readonly sdk: number };
  /** Status line, headers and body of the answer as sent to the client. */
  readonly answerBytes: number;
  readonly readUnits: number;
  readonly writeUnits: number;
}

/** One scheduled run of the stage check: its requests through the public API, summed. */
export interface StageCheckRun {
  readonly requests: number;
  readonly invocations: number;
  /** Each function's billed milliseconds over the run (local wall time, rounded up per invocation). */
  readonly billedMs: Readonly<Record<string, number>>;
  readonly logBytes: number;
  readonly accessLogBytes: number;
  readonly readUnits: number;
  readonly writeUnits: number;
  /** Its own invocation's wall time: it waits on every request it makes. */
  readonly checkMs: number;
  /** Distinct custom metrics (namespace, name, dimension values) the functions published during the run. */
  readonly metrics: readonly string[];
  /** The statuses each API's access log saw (what the access-log metric filters match). */
  readonly statuses: Readonly<Record<string, readonly string[]>>;
}

export const OPERATIONS = [
  'getPet',
  'listPets ?limit=20 (unfiltered)',
  'listPets ?status=sold&limit=20',
  'createPet',
  'createPet with Idempotency-Key',
  'submitMessage',
  'anonymous call (authorizer refuses a made-up key)',
] as const;
export type CostedOperation = (typeof OPERATIONS)[number];

export interface CostInputs {
  readonly measured: {
    readonly requests: Readonly<Record<CostedOperation, MeasuredRequest>>;
    readonly stageCheck: StageCheckRun;
    /** Distinct custom metrics the costed requests published (besides the stage check's). */
    readonly metrics: readonly string[];
    /** Stored ÷ ingested bytes of the measured lines, gzip: CloudWatch bills stored logs compressed. */
    readonly logCompression: number;
    readonly browserUserAgent: string;
    readonly sdkUserAgent: string;
  };
  readonly stages: Readonly<Record<StageName, StageInventory>>;
}

const GB = 1e9;
const MILLION = 1e6;
const SECONDS_PER_MONTH = 30 * 24 * 3600;
/** The docs' stage at 10,000 requests/s: 80 % reads (half keyed, half pages, half of those filtered), 15 % creates (half with Idempotency-Key), 5 % messages. */
export const MIX: Readonly<Record<Exclude<CostedOperation, 'anonymous call (authorizer refuses a made-up key)'>, number>> = {
  getPet: 0.4,
  'listPets ?limit=20 (unfiltered)': 0.2,
  'listPets ?status=sold&limit=20': 0.2,
  createPet: 0.075,
  'createPet with Idempotency-Key': 0.075,
  submitMessage: 0.05,
};
export const MONTH_AT_RATE = 10_000;

/** What one request of an operation adds up to, per item, at a stage's settings, before volume tiers. */
interface RequestCost {
  readonly apiGateway: number;
  readonly lambdaRequests: number;
  readonly gbSeconds: number;
  readonly readUnits: number;
  readonly writeUnits: number;
  readonly functionLogBytes: number;
  readonly accessLogBytes: number;
  readonly traced: boolean;
  readonly answerBytes: number;
}

function requestCost(request: MeasuredRequest, stage: StageInventory): RequestCost {
  const memoryGb = (fn: string): number => (stage.functions[fn]?.memoryMb ?? 0) / 1024;
  return {
    apiGateway: 1,
    lambdaRequests: request.invocations.length,
    gbSeconds: request.invocations.reduce((sum, one) => sum + (Math.ceil(one.ms) / 1000) * memoryGb(one.fn), 0),
    readUnits: request.readUnits,
    writeUnits: request.writeUnits,
    functionLogBytes: request.invocations.reduce((sum, one) => sum + one.logBytes, 0),
    accessLogBytes: request.accessLogBytes.browser,
    traced: request.invocations.some((one) => stage.functions[one.fn]?.traced === true),
    answerBytes: request.answerBytes,
  };
}

export interface PerMillion {
  readonly operation: CostedOperation;
  readonly apiGateway: number;
  readonly lambda: number;
  readonly dynamoDb: number;
  readonly logs: number;
  readonly xray: number;
  readonly dataOut: number;
  readonly total: number;
  /** The front door on top: CloudFront, WAF, the CloudFront function, and data out at CloudFront's price instead. */
  readonly frontDoor: number;
  readonly withFrontDoor: number;
  readonly logBytes: number;
}

/** A million requests of each operation at prod's settings, at each price's first tier. */
export function perMillion(inputs: CostInputs): PerMillion[] {
  const stage = inputs.stages.prod;
  return OPERATIONS.map((operation) => {
    const cost = requestCost(inputs.measured.requests[operation], stage);
    const apiGateway = PRICES.httpApiPerMillion.first300Million;
    const lambda = cost.lambdaRequests * PRICES.lambdaPerMillionInvocations + cost.gbSeconds * MILLION * PRICES.lambdaPerGbSecond;
    const dynamoDb = cost.readUnits * PRICES.dynamoDbPerMillionReadUnits + cost.writeUnits * PRICES.dynamoDbPerMillionWriteUnits;
    const logs = ((cost.functionLogBytes + cost.accessLogBytes) * MILLION * PRICES.logsIngestedPerGb) / GB;
    const xray = cost.traced ? PRICES.xraySampledShare * PRICES.xrayPerMillionTraces : 0;
    const answerGb = (cost.answerBytes * MILLION) / GB;
    const dataOut = answerGb * PRICES.internetOutTiersPerGb[0].price;
    const total = apiGateway + lambda + dynamoDb + logs + xray + dataOut;
    const frontDoor =
      PRICES.cloudFrontPerMillionHttpsRequests +
      PRICES.wafPerMillionRequests +
      PRICES.cloudFrontFunctionPerMillion +
      answerGb * PRICES.cloudFrontOutTiersPerGb[0].price -
      dataOut;
    return {
      operation,
      apiGateway,
      lambda,
      dynamoDb,
      logs,
      xray,
      dataOut,
      total,
      frontDoor,
      withFrontDoor: total + frontDoor,
      logBytes: cost.functionLogBytes + cost.accessLogBytes,
    };
  });
}

export interface IdleCost {
  readonly stage: StageName;
  readonly items: readonly { readonly item: string; readonly detail: string; readonly dollars: number }[];
  readonly total: number;
  readonly customMetrics: number;
}

/** The stage check's requests in a month: what each costs, as a request does, at the stage's settings. */
function stageCheckMonth(run: StageCheckRun, stage: StageInventory): number {
  const runs = stage.stageCheckRunsPerMonth;
  if (runs === 0) return 0;
  const gbSeconds = Object.entries({ ...run.billedMs, stageCheck: Math.ceil(run.checkMs) }).reduce(
    (sum, [fn, ms]) => sum + (ms / 1000) * ((stage.functions[fn]?.memoryMb ?? 0) / 1024),
    0,
  );
  const traced = Object.values(stage.functions).some((fn) => fn.traced);
  const perRun =
    (run.requests * PRICES.httpApiPerMillion.first300Million) / MILLION +
    ((run.invocations + 1) * PRICES.lambdaPerMillionInvocations) / MILLION +
    gbSeconds * PRICES.lambdaPerGbSecond +
    (run.readUnits * PRICES.dynamoDbPerMillionReadUnits + run.writeUnits * PRICES.dynamoDbPerMillionWriteUnits) / MILLION +
    ((run.logBytes + run.accessLogBytes) * PRICES.logsIngestedPerGb) / GB +
    // Under one request a second, Lambda's sampling traces every one.
    (traced ? ((run.requests + 1) * PRICES.xrayPerMillionTraces) / MILLION : 0) +
    (stage.frontDoor
      ? (run.requests * (PRICES.cloudFrontPerMillionHttpsRequests + PRICES.wafPerMillionRequests + PRICES.cloudFrontFunctionPerMillion)) /
        MILLION
      : 0);
  return perRun * runs;
}

/** The custom metrics the access-log filters publish: those whose status the given traffic shows on their API. */
const filterMetricsSeen = (stage: StageInventory, statuses: Readonly<Record<string, readonly string[]>>): number =>
  stage.metricFilters.filter((filter) => statuses[filter.api]?.includes(filter.status)).length;

/** What a stage costs in a month with no traffic but its own: as committed in config/<stage>.json. */
export function idleCost(inputs: CostInputs, stageName: StageName): IdleCost {
  const stage = inputs.stages[stageName];
  const run = inputs.measured.stageCheck;
  const checked = stage.stageCheckRunsPerMonth > 0;
  const customMetrics = checked ? run.metrics.length + filterMetricsSeen(stage, run.statuses) : 0;
  const items = [
    {
      item: 'alarms',
      detail: `${stage.alarms} watching ${stage.alarmMetrics} metrics`,
      dollars: stage.alarmMetrics * PRICES.alarmMetricPerMonth,
    },
    {
      item: 'custom metrics the stage check keeps published',
      detail: String(customMetrics),
      dollars: customMetrics * PRICES.customMetricPerMonth,
    },
    { item: 'dashboards', detail: String(stage.dashboards), dollars: stage.dashboards * PRICES.dashboardPerMonth },
    {
      item: 'web ACLs and their rules',
      detail: `${stage.webAcls} and ${stage.webAclRules}`,
      dollars: stage.webAcls * PRICES.wafWebAclPerMonth + stage.webAclRules * PRICES.wafRulePerMonth,
    },
    { item: 'secrets', detail: String(stage.secrets), dollars: stage.secrets * PRICES.secretPerMonth },
    { item: 'KMS keys', detail: String(stage.kmsKeys), dollars: stage.kmsKeys * PRICES.kmsKeyPerMonth },
    {
      item: 'the stage check’s runs and their requests',
      detail: `${Math.round(stage.stageCheckRunsPerMonth)} × ${checked ? run.requests : 0}`,
      dollars: stageCheckMonth(run, stage),
    },
  ];
  return { stage: stageName, items, total: items.reduce((sum, { dollars }) => sum + dollars, 0), customMetrics };
}

export interface MonthLine {
  readonly item: string;
  readonly dollars: number;
}

export interface Month {
  readonly requests: number;
  readonly lines: readonly MonthLine[];
  readonly total: number;
  readonly frontDoorLines: readonly MonthLine[];
  readonly totalWithFrontDoor: number;
}

/** prod as committed, at MONTH_AT_RATE requests/s for 30 days in MIX, front door off (its own lines after). */
export function monthAtRate(inputs: CostInputs): Month {
  const stage = inputs.stages.prod;
  const requests = MONTH_AT_RATE * SECONDS_PER_MONTH;
  const sum = (of: (cost: RequestCost) => number): number =>
    Object.entries(MIX).reduce(
      (total, [operation, share]) =>
        total + share * requests * of(requestCost(inputs.measured.requests[operation as CostedOperation], stage)),
      0,
    );
  const functionLogGb = sum((cost) => cost.functionLogBytes) / GB;
  const accessLogGb = sum((cost) => cost.accessLogBytes) / GB;
  const retention = (days: readonly number[]): number => days.reduce((a, b) => a + b, 0) / days.length / 30;
  const functionRetention = retention(Object.values(stage.functions).map((fn) => fn.logRetentionDays));
  const accessRetention = retention(Object.values(stage.accessLogs).map((log) => log.retentionDays));
  const storedGb = (functionLogGb * functionRetention + accessLogGb * accessRetention) * inputs.measured.logCompression;
  const answerGb = sum((cost) => cost.answerBytes) / GB;
  const idle = idleCost(inputs, 'prod');
  const metrics = new Set([...inputs.measured.stageCheck.metrics, ...inputs.measured.metrics]).size + stage.metricFilters.length;
  const million = requests / MILLION;
  const lines: MonthLine[] = [
    {
      item: `API Gateway (${(million / 1000).toFixed(2)} billion requests)`,
      dollars:
        Math.min(million, 300) * PRICES.httpApiPerMillion.first300Million + Math.max(0, million - 300) * PRICES.httpApiPerMillion.after,
    },
    { item: 'Lambda requests', dollars: (sum((cost) => cost.lambdaRequests) / MILLION) * PRICES.lambdaPerMillionInvocations },
    { item: 'Lambda duration', dollars: sum((cost) => cost.gbSeconds) * PRICES.lambdaPerGbSecond },
    { item: 'DynamoDB reads', dollars: (sum((cost) => cost.readUnits) / MILLION) * PRICES.dynamoDbPerMillionReadUnits },
    { item: 'DynamoDB writes', dollars: (sum((cost) => cost.writeUnits) / MILLION) * PRICES.dynamoDbPerMillionWriteUnits },
    { item: `access logs ingested (${(accessLogGb / 1000).toFixed(1)} TB)`, dollars: accessLogGb * PRICES.logsIngestedPerGb },
    {
      item: `function logs ingested (${(functionLogGb / 1000).toFixed(1)} TB, vended tiers)`,
      dollars: tiered(functionLogGb, PRICES.lambdaLogsTiersPerGb),
    },
    {
      item: `logs stored at the stage's retention (${(storedGb / 1000).toFixed(1)} TB compressed)`,
      dollars: storedGb * PRICES.logsStoredPerGbMonth,
    },
    {
      item: 'X-Ray (5 % of traced requests)',
      dollars: (sum((cost) => (cost.traced ? 1 : 0)) / MILLION) * PRICES.xraySampledShare * PRICES.xrayPerMillionTraces,
    },
    { item: `data out to the internet (${(answerGb / 1000).toFixed(1)} TB)`, dollars: tiered(answerGb, PRICES.internetOutTiersPerGb) },
    {
      item: `custom metrics (${metrics}) and the idle stage's other fixed costs`,
      dollars:
        idle.total -
        (idle.items.find((line) => line.item.startsWith('custom metrics'))?.dollars ?? 0) +
        metrics * PRICES.customMetricPerMonth,
    },
  ];
  const total = lines.reduce((acc, line) => acc + line.dollars, 0);
  const frontDoorLines: MonthLine[] = [
    { item: 'CloudFront requests', dollars: million * PRICES.cloudFrontPerMillionHttpsRequests },
    { item: 'WAF requests', dollars: million * PRICES.wafPerMillionRequests },
    { item: 'CloudFront function', dollars: million * PRICES.cloudFrontFunctionPerMillion },
    {
      item: 'data out through CloudFront instead of API Gateway',
      dollars: tiered(answerGb, PRICES.cloudFrontOutTiersPerGb) - tiered(answerGb, PRICES.internetOutTiersPerGb),
    },
  ];
  return {
    requests,
    lines,
    total,
    frontDoorLines,
    totalWithFrontDoor: total + frontDoorLines.reduce((acc, line) => acc + line.dollars, 0),
  };
}

/** Dollars as the docs write them: cents below $100, whole dollars up to $10,000, then tens. */
export function dollars(value: number): string {
  const size = Math.abs(value);
  const rounded = size < 100 ? size : size < 10_000 ? Math.round(size) : Math.round(size / 10) * 10;
  const digits = size < 100 ? 2 : 0;
  return `${value < 0 ? '−' : ''}$${rounded.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })}`;
}

/** The tables `npm run bench` prints and the docs copy: per million requests, idle per stage, the month at 10,000/s. */
export function costTables(inputs: CostInputs): Table[] {
  const perOp = perMillion(inputs);
  const idle = (['dev', 'staging', 'prod'] as const).map((stage) => idleCost(inputs, stage));
  const month = monthAtRate(inputs);
  const { measured } = inputs;
  const getPet = measured.requests.getPet.accessLogBytes;
  return [
    {
      title: 'Cost per million requests (prod as committed, us-east-1 list prices, first tiers)',
      note:
        `Per million requests of each kind, from the bench's measurements: its invocations (billed at their local wall time against the local DynamoDB, rounded up to the ms, at the template's memory; ` +
        `not measured in AWS), its log lines (function, authorizer) and access-log line (${getPet.browser} bytes for a keyed read with a browser's User-Agent, ${getPet.sdk} with the SDK's), its capacity units, ` +
        `its answer's bytes, and X-Ray's 5 % of traced requests. "front door" adds CloudFront's request, WAF's and the CloudFront function's prices and moves data out to CloudFront's price.`,
      columns: ['request', 'API Gateway', 'Lambda', 'DynamoDB', 'logs', 'X-Ray', 'data out', 'total', 'with the front door', 'log bytes'],
      rows: perOp.map((row) => [
        row.operation,
        dollars(row.apiGateway),
        dollars(row.lambda),
        dollars(row.dynamoDb),
        dollars(row.logs),
        dollars(row.xray),
        dollars(row.dataOut),
        dollars(row.total),
        dollars(row.withFrontDoor),
        String(Math.round(row.logBytes)),
      ]),
    },
    {
      title: 'Idle cost per month (each stage as committed in config/<stage>.json)',
      note:
        `Counted from each stage's synthesized template; the stage check's requests as one run measured here (${measured.stageCheck.requests} requests, ` +
        `${measured.stageCheck.metrics.length} custom metrics published). List prices, no free tier (an account's first 10 alarm metrics, 10 custom metrics and 3 dashboards are free).`,
      columns: ['item', ...idle.map((stage) => stage.stage)],
      rows: [
        ...(idle[0]?.items ?? []).map((line, index) => [
          line.item,
          ...idle.map((stage) => `${dollars(stage.items[index]?.dollars ?? 0)} (${stage.items[index]?.detail ?? ''})`),
        ]),
        ['**total**', ...idle.map((stage) => `**${dollars(stage.total)}**`)],
      ],
    },
    {
      title: `A month at ${MONTH_AT_RATE.toLocaleString('en-US')} requests/s (prod as committed; 30 days)`,
      note: `Mix: ${Object.entries(MIX)
        .map(([operation, share]) => `${operation} ${Math.round(share * 1000) / 10} %`)
        .join(
          ', ',
        )}. Volume tiers applied; logs stored at each log group's retention, compressed as gzip compresses the measured lines (${(measured.logCompression * 100).toFixed(0)} %).`,
      columns: ['item', 'per month'],
      rows: [
        ...month.lines.map((line) => [line.item, dollars(line.dollars)]),
        ['**total, front door off**', `**${dollars(month.total)}**`],
        ...month.frontDoorLines.map((line) => [`front door: ${line.item}`, dollars(line.dollars)]),
        ['**total, front door on**', `**${dollars(month.totalWithFrontDoor)}**`],
      ],
    },
  ];
}
