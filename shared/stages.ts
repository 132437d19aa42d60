/**
 * The deployment stages and the name of each one's stack, as plain data: the CDK app, the keys CLI
 * and the OpenAPI document read them from here. No aws-cdk-lib import here on purpose.
 */
export const STAGES = ['dev', 'staging', 'prod'] as const;
export type StageName = (typeof STAGES)[number];

export function isStageName(value: unknown): value is StageName {
  return typeof value === 'string' && (STAGES as readonly string[]).includes(value);
}

/** The stage from `-c stage=…` (or `--stage`); dev when absent, an error for anything unknown (never a silent default). */
export function parseStage(value: unknown): StageName {
  if (value === undefined) return 'dev';
  if (!isStageName(value)) throw new Error(`unknown stage ${JSON.stringify(value)}: use ${STAGES.join(', ')}`);
  return value;
}

/** One stack per stage. */
export const stackNameOf = (stage: StageName): string => `PetStore-${stage}`;
