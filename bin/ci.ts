#!/usr/bin/env node
/**
 * PetStore-ci, apart from the stages: `npm run cdk:ci -- deploy -c stages=<the stages this account holds>`, once per
 * account, with admin credentials (docs/pipeline.md). Without `-c stages`, one account holds staging and prod.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { readFileSync } from 'node:fs';
import { parseCiConfig, PetStoreCiStack } from '#lib/petstore-ci-stack';

const app = new App();
try {
  const config = parseCiConfig(
    JSON.parse(readFileSync(new URL('../config/ci.json', import.meta.url), 'utf8')) as object,
    app.node.tryGetContext('stages') as string | undefined,
  );
  new PetStoreCiStack(app, 'PetStore-ci', { config, tags: { service: 'petstore' } });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
