/**
 * `npm run restore-table -- --stage <stage> --table <pets|messages|apiKeys|accounts> --from <table> [--overwrite]`:
 * repairs one table of a running stage in place from a copy of it, typically a point-in-time restore
 * (docs/runbooks.md, "One table damaged"). Every item of `--from` is written into the stage's table unless an item
 * with its key is there: deleted items come back, and nothing written since (a pet created, a key revoked) is undone.
 * `--overwrite` also replaces the items that are there, for data damaged in place. The stage keeps serving, its
 * table keeps its name, settings, backups and alarms; nothing is imported or redeployed.
 */
import { paginateScan, PutCommand } from '@aws-sdk/lib-dynamodb';
import { parseArgs } from 'node:util';
import { createDocumentClient } from '#data/dynamodb-client';
import { isStageName, STAGES } from '#shared/stages';
import { TABLES } from '#shared/tables';
import { runOperatorCommand, STAGE_REQUIRED, stackOutputs, stageTarget, TARGET_ARGS, TARGET_USAGE } from './aws-target';

/** The tables with a stack output; the idempotency table has none, and its records expire within a day anyway. */
const TABLE_OUTPUTS = { pets: 'PetsTableName', messages: 'MessagesTableName', apiKeys: 'ApiKeysTableName', accounts: 'AccountsTableName' };
type RestorableTable = keyof typeof TABLE_OUTPUTS;

const USAGE = `Usage: npm run restore-table -- --stage <${STAGES.join('|')}> --table <${Object.keys(TABLE_OUTPUTS).join('|')}> --from <table> [--overwrite]

  --from <table>   the table to copy from (a point-in-time restore of the stage's table)
  --overwrite      also replace the items the stage's table holds (default: only add the missing ones)
${TARGET_USAGE}`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      stage: { type: 'string' },
      table: { type: 'string' },
      from: { type: 'string' },
      overwrite: { type: 'boolean', default: false },
      ...TARGET_ARGS,
    },
  });
  if (!isStageName(values.stage)) {
    console.error(`${STAGE_REQUIRED}\n\n${USAGE}`);
    return 2;
  }
  const table = values.table as RestorableTable;
  if (!(table in TABLE_OUTPUTS) || !values.from) {
    console.error(USAGE);
    return 2;
  }
  const aws = await stageTarget(values.stage, { region: values.region, profile: values.profile });
  const target = (await stackOutputs(values.stage, aws))[TABLE_OUTPUTS[table]];
  if (!target) throw new Error(`the stack has no ${TABLE_OUTPUTS[table]} output; deploy it first`);
  if (target === values.from) throw new Error(`--from names the stage's own ${table} table`);
  const key = TABLES[table].partitionKey.name;
  const db = createDocumentClient(undefined, aws.region);
  let written = 0;
  let kept = 0;
  try {
    for await (const page of paginateScan({ client: db }, { TableName: values.from, ConsistentRead: true })) {
      for (const item of page.Items ?? []) {
        const onlyMissing = values.overwrite
          ? {}
          : { ConditionExpression: 'attribute_not_exists(#key)', ExpressionAttributeNames: { '#key': key } };
        try {
          await db.send(new PutCommand({ TableName: target, Item: item, ...onlyMissing }));
          written++;
        } catch (error) {
          if (!(error instanceof Error && error.name === 'ConditionalCheckFailedException')) throw error;
          kept++;
        }
      }
    }
  } finally {
    db.destroy();
  }
  console.log(`${target}: ${written} items written from ${values.from}, ${kept} kept as they were.`);
  return 0;
}

// Run as a command, not when a test imports it.
if (/restore-table\.ts$/.test(process.argv[1] ?? '')) runOperatorCommand(run);
