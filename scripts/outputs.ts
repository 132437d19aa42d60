/**
 * `npm run outputs -- --stage staging`: a deployed stage's stack outputs (base URLs, table names), without the AWS
 * CLI. `--get <OutputKey>` prints one value alone: `PETS=$(npm run --silent outputs -- --stage staging --get PetsBaseUrl)`.
 */
import { STAGES } from '#shared/stages';
import { parseStageArgs, runOperatorCommand, stackOutputs, stageTarget, TARGET_USAGE } from './aws-target';

const USAGE = `Usage: npm run outputs -- --stage <${STAGES.join('|')}> [options]

Options:
${TARGET_USAGE}
  --get <OutputKey>           print only that output's value (e.g. PetsBaseUrl)
  --json                      all outputs as one JSON object
  --help`;

async function run(argv: string[]): Promise<number> {
  const args = parseStageArgs(argv, { get: { type: 'string' }, json: { type: 'boolean', default: false } }, USAGE);
  if (typeof args === 'number') return args;
  const { values, stage } = args;
  const outputs = await stackOutputs(stage, await stageTarget(stage, values));
  if (values.get !== undefined) {
    const value = outputs[values.get];
    if (value === undefined) {
      console.error(`no output ${values.get}; the stack has ${Object.keys(outputs).join(', ')}`);
      return 1;
    }
    console.log(value);
  } else if (values.json) console.log(JSON.stringify(outputs));
  else for (const [key, value] of Object.entries(outputs).sort()) console.log(`${key.padEnd(20)} ${value}`);
  return 0;
}

runOperatorCommand(run);
