/**
 * `npm run backfill:status-shards -- --stage <stage>`: gives every pet of a deployed stage that predates the
 * sharded status index its shard key (lambda/data/repositories/status-shard-backfill.ts). Step 2 of
 * docs/deploy-reference.md, "Upgrading the status index". Safe to run while the stage serves, and to run again.
 */
import { parseArgs } from 'node:util';
import { createDocumentClient } from '#data/dynamodb-client';
import { backfillStatusShards } from '#data/repositories/status-shard-backfill';
import { isStageName, STAGES, stackNameOf } from '#shared/stages';
import { runOperatorCommand, STAGE_REQUIRED, stackOutputs, stageTarget, TARGET_ARGS, TARGET_USAGE } from './aws-target';

const USAGE = `Usage: npm run backfill:status-shards -- --stage <${STAGES.join('|')}> [--region <region>] [--profile <name>]

${TARGET_USAGE}`;

async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { stage: { type: 'string' }, ...TARGET_ARGS, help: { type: 'boolean', default: false } },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!isStageName(values.stage)) {
    console.error(`${STAGE_REQUIRED}\n\n${USAGE}`);
    return 2;
  }
  const aws = await stageTarget(values.stage, { region: values.region, profile: values.profile });
  const table = (await stackOutputs(values.stage, aws)).PetsTableName;
  if (!table) {
    console.error(`stack ${stackNameOf(values.stage)} has no PetsTableName output; deploy it first`);
    return 1;
  }
  const db = createDocumentClient(undefined, aws.region);
  try {
    const done = await backfillStatusShards(db, table, ({ scanned, updated }) =>
      console.error(`${scanned} pets read, ${updated} given their shard key`),
    );
    console.log(`${table}: ${done.scanned} pets, ${done.updated} given their shard key; every pet now has one.`);
    return 0;
  } finally {
    db.destroy();
  }
}

runOperatorCommand(run);
