/**
 * The us-east-1 list prices the cost model (costs.ts) uses, in dollars, each from the pricing page named beside its
 * group (read November 2026). Free tiers are left out: they are the account's, not a stage's. A GB is 10^9 bytes.
 */
export const PRICES = {
  // https://aws.amazon.com/api-gateway/pricing/ (HTTP APIs)
  httpApiPerMillion: { first300Million: 1.0, after: 0.9 },
  // https://aws.amazon.com/lambda/pricing/ (Arm)
  lambdaPerMillionInvocations: 0.2,
  lambdaPerGbSecond: 0.0000133334,
  // https://aws.amazon.com/dynamodb/pricing/on-demand/
  dynamoDbPerMillionReadUnits: 0.125,
  dynamoDbPerMillionWriteUnits: 0.625,
  // https://aws.amazon.com/cloudwatch/pricing/
  /** Standard logs (the access logs); Lambda's logs are vended logs, billed by the tiers below over the month. */
  logsIngestedPerGb: 0.5,
  lambdaLogsTiersPerGb: [
    { upToGb: 10_000, price: 0.5 },
    { upToGb: 30_000, price: 0.25 },
    { upToGb: 50_000, price: 0.1 },
    { upToGb: Number.POSITIVE_INFINITY, price: 0.05 },
  ],
  logsStoredPerGbMonth: 0.03,
  customMetricPerMonth: 0.3,
  alarmMetricPerMonth: 0.1,
  dashboardPerMonth: 3.0,
  // https://aws.amazon.com/xray/pricing/
  xrayPerMillionTraces: 5.0,
  /** Lambda's sampling of a traced function, which cannot be changed: the first request each second, then 5 %. */
  xraySampledShare: 0.05,
  // https://aws.amazon.com/waf/pricing/
  wafWebAclPerMonth: 5.0,
  wafRulePerMonth: 1.0,
  wafPerMillionRequests: 0.6,
  // https://aws.amazon.com/cloudfront/pricing/ (United States)
  cloudFrontPerMillionHttpsRequests: 1.0,
  cloudFrontFunctionPerMillion: 0.1,
  cloudFrontOutTiersPerGb: [
    { upToGb: 10_000, price: 0.085 },
    { upToGb: 50_000, price: 0.08 },
    { upToGb: 150_000, price: 0.06 },
    { upToGb: 500_000, price: 0.04 },
    { upToGb: Number.POSITIVE_INFINITY, price: 0.03 },
  ],
  // https://aws.amazon.com/ec2/pricing/on-demand/ (data transfer out to the internet, which API Gateway's answers pay)
  internetOutTiersPerGb: [
    { upToGb: 10_000, price: 0.09 },
    { upToGb: 50_000, price: 0.085 },
    { upToGb: 150_000, price: 0.07 },
    { upToGb: Number.POSITIVE_INFINITY, price: 0.05 },
  ],
  // https://aws.amazon.com/secrets-manager/pricing/
  secretPerMonth: 0.4,
  // https://aws.amazon.com/kms/pricing/
  kmsKeyPerMonth: 1.0,
} as const;

export interface Tier {
  readonly upToGb: number;
  readonly price: number;
}

/** What `gb` in a month costs on a tiered price (each tier's price for the GB within it). */
export function tiered(gb: number, tiers: readonly Tier[]): number {
  let cost = 0;
  let from = 0;
  for (const { upToGb, price } of tiers) {
    if (gb <= from) break;
    cost += (Math.min(gb, upToGb) - from) * price;
    from = upToGb;
  }
  return cost;
}
