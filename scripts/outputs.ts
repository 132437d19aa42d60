/**
 * `npm run outputs -- --stage staging`: a deployed stage's stack outputs (base URLs, table names), so
 * operators need no AWS CLI. `--get <OutputKey>` prints one value alone, for scripts:
 * `PETS=$(npm run --silent outputs -- --stage staging --get PetsBaseUrl)`.
 */
import { parseArgs } from 'node:util';
import { isStageName, STAGES } from '#shared/stages';
import { runOperatorCommand, STAGE_REQUIRED, stackOutputs, stageTarget, TARGET_ARGS, TARGET_USAGE } from './aws-target';

const USAGE = `Usage: npm run outputs -- --stage <${STAGES.join('|')}> [options]

Options:
${TARGET_USAGE}
  --get <OutputKey>           print only that output's value (e.g. PetsBaseUrl)
  --json                      all outputs as one JSON object
  --help`;

async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      stage: { type: 'string' },
      ...TARGET_ARGS,
      get: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!isStageName(values.stage)) {
    console.error(`${STAGE_REQUIRED}\n\n${USAGE}`);
    return 2;
  }
  const target = await stageTarget(values.stage, { region: values.region, profile: values.profile });
  const outputs = await stackOutputs(values.stage, target);
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
