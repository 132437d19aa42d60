#!/usr/bin/env node
/**
 * One stack per stage: `npm run cdk -- deploy -c stage=staging` deploys PetStore-staging (and, for a
 * front door outside us-east-1, PetStore-staging-edge first). Account and region come from the CLI's
 * environment (profile or AWS_* variables); synth needs no account.
 */
import { App, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addPetStore } from '#lib/petstore-app';
import { STAGE_CONTEXT_KEYS, stageConfig } from '#lib/stage-config';
import { parseStage } from '#shared/stages';

const app = new App();
const projectRoot = fileURLToPath(new URL('..', import.meta.url));
configOrExit(() => refuseUnknownContext(app.node.getAllContext() as Record<string, unknown>));
const stage = configOrExit(() => parseStage(app.node.tryGetContext('stage')));
const config = configOrExit(() =>
  stageConfig(stage, Object.fromEntries(STAGE_CONTEXT_KEYS.map((key) => [key, app.node.tryGetContext(key) as unknown]))),
);

addPetStore(app, {
  config,
  projectRoot,
  env: {
    ...(process.env.CDK_DEFAULT_ACCOUNT ? { account: process.env.CDK_DEFAULT_ACCOUNT } : {}),
    ...(process.env.CDK_DEFAULT_REGION ? { region: process.env.CDK_DEFAULT_REGION } : {}),
  },
});

/**
 * A mistyped `-c` key (`corsOrigin` for `corsOrigins`) would otherwise be ignored and the stage deployed
 * without it. The CDK's feature flags and the CLI's own keys all hold a colon; cdk.json's others are ours.
 */
function refuseUnknownContext(context: Record<string, unknown>): void {
  const known: string[] = [
    'stage',
    ...STAGE_CONTEXT_KEYS,
    ...Object.keys((JSON.parse(readFileSync(join(projectRoot, 'cdk.json'), 'utf8')) as { context?: object }).context ?? {}),
  ];
  const unknown = Object.keys(context).filter((key) => !key.includes(':') && !known.includes(key));
  if (unknown.length === 0) return;
  const named = unknown.map((key) => {
    const near = known.find((candidate) => editDistance(candidate.toLowerCase(), key.toLowerCase()) <= 2);
    return `${key}${near ? ` (did you mean ${near}?)` : ''}`;
  });
  throw new Error(
    `unknown context key${unknown.length > 1 ? 's' : ''} ${named.join(', ')}; the stage's keys are: stage, ${STAGE_CONTEXT_KEYS.join(', ')}`,
  );
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** A refused context value is the operator's to fix: its message alone, not a stack trace. */
function configOrExit<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}

// Cost allocation and ownership, on every resource that supports tags.
Tags.of(app).add('service', 'petstore');
Tags.of(app).add('stage', stage);
// cdk-nag 3 runs as a CDK policy-validation plugin (it no longer works as an Aspect): any finding
// fails the synth. Acknowledge one only next to the construct it concerns, with a one-line reason:
// `Validations.of(construct).acknowledge({ id: 'AwsSolutions-…', reason: '…' })`.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
