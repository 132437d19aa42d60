#!/usr/bin/env node
/**
 * One stack per stage: `npm run cdk -- deploy -c stage=staging` deploys PetStore-staging (and, for a
 * front door outside us-east-1, PetStore-staging-edge first). Account and region come from the CLI's
 * environment (profile or AWS_* variables); synth needs no account.
 */
import { App, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { fileURLToPath } from 'node:url';
import { addPetStore } from '#lib/petstore-app';
import { STAGE_CONTEXT_KEYS, stageConfig } from '#lib/stage-config';
import { parseStage } from '#shared/stages';

const app = new App();
const stage = configOrExit(() => parseStage(app.node.tryGetContext('stage')));
const config = configOrExit(() =>
  stageConfig(stage, Object.fromEntries(STAGE_CONTEXT_KEYS.map((key) => [key, app.node.tryGetContext(key) as unknown]))),
);

addPetStore(app, {
  config,
  projectRoot: fileURLToPath(new URL('..', import.meta.url)),
  env: {
    ...(process.env.CDK_DEFAULT_ACCOUNT ? { account: process.env.CDK_DEFAULT_ACCOUNT } : {}),
    ...(process.env.CDK_DEFAULT_REGION ? { region: process.env.CDK_DEFAULT_REGION } : {}),
  },
});

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
