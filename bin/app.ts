#!/usr/bin/env node
/**
 * One stack per stage: `npx cdk deploy -c stage=staging` deploys PetStore-staging. Account and region
 * come from the CLI's environment (profile or AWS_* variables); synth needs neither.
 */
import { App, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { fileURLToPath } from 'node:url';
import { PetStoreStack } from '../lib/petstore-stack';
import { stageConfig } from '../lib/stage-config';
import { parseStage, stackNameOf } from '../lib/stages';

const app = new App();
const stage = parseStage(app.node.tryGetContext('stage'));
const config = stageConfig(stage, {
  alarmEmail: app.node.tryGetContext('alarmEmail'),
  corsOrigins: app.node.tryGetContext('corsOrigins'),
});

new PetStoreStack(app, stackNameOf(stage), {
  config,
  projectRoot: fileURLToPath(new URL('..', import.meta.url)),
  env: {
    ...(process.env.CDK_DEFAULT_ACCOUNT ? { account: process.env.CDK_DEFAULT_ACCOUNT } : {}),
    ...(process.env.CDK_DEFAULT_REGION ? { region: process.env.CDK_DEFAULT_REGION } : {}),
  },
  description: `Pet store service (${stage})`,
});

// Cost allocation and ownership, on every resource that supports tags.
Tags.of(app).add('service', 'petstore');
Tags.of(app).add('stage', stage);
// cdk-nag 3 runs as a CDK policy-validation plugin (it no longer works as an Aspect): any finding
// fails the synth. Acknowledge one only next to the construct it concerns, with a one-line reason:
// `Validations.of(construct).acknowledge({ id: 'AwsSolutions-…', reason: '…' })`.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
