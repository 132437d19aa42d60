#!/usr/bin/env node
/**
 * One stack per stage: `npm run cdk -- deploy -c stage=staging` deploys PetStore-staging as config/staging.json says;
 * another `-c` key overrides that option for this deploy. Account and region come from the CLI's environment.
 */
import { App, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { fileURLToPath } from 'node:url';
import cdkJson from '../cdk.json' with { type: 'json' };
import { addPetStore } from '#lib/petstore-app';
import { stageFromContext } from '#lib/stage-config';

const app = new App();
let built: ReturnType<typeof stageFromContext>;
try {
  built = stageFromContext(app.node.getAllContext() as Record<string, unknown>, Object.keys(cdkJson.context));
} catch (error) {
  // A refused option is the operator's to fix: its message alone, not a stack trace.
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
const { config, report } = built;
console.error(report);

addPetStore(app, {
  config,
  projectRoot: fileURLToPath(new URL('..', import.meta.url)),
  env: {
    ...(process.env.CDK_DEFAULT_ACCOUNT ? { account: process.env.CDK_DEFAULT_ACCOUNT } : {}),
    ...(process.env.CDK_DEFAULT_REGION ? { region: process.env.CDK_DEFAULT_REGION } : {}),
  },
});

// Cost allocation and ownership, on every resource that supports tags.
Tags.of(app).add('service', 'petstore');
Tags.of(app).add('stage', config.stage);
// cdk-nag 3 runs as a policy-validation plugin: any finding fails the synth. Acknowledge one only next to the
// construct it concerns: `Validations.of(construct).acknowledge({ id: 'AwsSolutions-…', reason: '…' })`.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
