/**
 * `npm run restore-table`: repairs a running stage's table in place from a point-in-time restore of it (docs/runbooks.md,
 * "One table damaged"): each item of `--from` is written unless the table holds its key, or always with `--overwrite`.
 */
import { paginateScan, PutCommand } from '@aws-sdk/lib-dynamodb';
import { parseArgs } from 'node:util';
import { createDocumentClient } from '#data/dynamodb-client';
import { isConditionFailure } from '#data/repositories/conditional-put';
import { isStageName, STAGES } from '#shared/stages';
import { TABLES } from '#shared/tables';
import { outputOf, runOperatorCommand, STAGE_REQUIRED, stackOutputs, stageTarget, TARGET_ARGS, TARGET_USAGE } from './aws-target';
import { withCallDeadline } from './aws-call-deadline';

/** The tables with a stack output; the idempotency table has none, and its records expire within a day anyway. */
const TABLE_OUTPUTS = { pets: 'PetsTableName', messages: 'MessagesTableName', apiKeys: 'ApiKeysTableName', accounts: 'AccountsTableName' };
type RestorableTable = keyof typeof TABLE_OUTPUTS;

const USAGE = `Usage: npm run restore-table -- --stage <${STAGES.join('|')}> --table <${Object.keys(TABLE_OUTPUTS).join('|')}> --from <table> [--overwrite]
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
  const table = values.table as RestorableTable;
  if (!isStageName(values.stage) || !(table in TABLE_OUTPUTS) || !values.from) {
    console.error(`${isStageName(values.stage) ? '' : `${STAGE_REQUIRED}\n\n`}${USAGE}`);
    return 2;
  }
  const aws = await stageTarget(values.stage, values);
  const target = outputOf(await stackOutputs(values.stage, aws), TABLE_OUTPUTS[table]);
  if (target === values.from) throw new Error(`--from names the stage's own ${table} table`);
  const key = TABLES[table].partitionKey.name;
  const db = withCallDeadline(createDocumentClient(undefined, aws.region), aws.region);
  let written = 0;
  let kept = 0;
  try {
    for await (const page of paginateScan({ client: db }, { TableName: values.from, ConsistentRead: true })) {
      for (const item of page.Items ?? []) {
        const onlyMissing = { ConditionExpression: 'attribute_not_exists(#key)', ExpressionAttributeNames: { '#key': key } };
        try {
          await db.send(new PutCommand({ TableName: target, Item: item, ...(values.overwrite ? {} : onlyMissing) }));
          written++;
        } catch (error) {
          if (!isConditionFailure(error)) throw error;
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
