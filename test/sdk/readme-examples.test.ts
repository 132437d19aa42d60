/**
 * The SDK README's examples run as written, in order, against the local API: from "## Use" to "### Errors", every
 * `ts` block, with their imports taken from the package's source and the base URLs and key a reader would fill in.
 * An example that calls the API wrongly (a 400) or names something the package does not export fails here.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';
import * as sdk from '../../clients/typescript/src/index.ts';
import { useTestApi } from '../support/test-api';

const api = useTestApi();

const README = readFileSync(resolve(__dirname, '../../clients/typescript/README.md'), 'utf8');
const IMPORT = /^import \{([^}]*)\} from '@petstore\/client';\n/gm;

/** The `ts` blocks of the README from one heading to another, joined into one program. */
function examples(from: string, to: string): string {
  const section = README.slice(README.indexOf(from), README.indexOf(to));
  return [...section.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map(([, code]) => code).join('\n');
}

test('the README examples from "Use" to "Errors" run against the API as written', async () => {
  const program = examples('## Use', '### Errors');
  const imported = [...program.matchAll(IMPORT)].flatMap(([, names = '']) => names.split(',').map((name) => name.trim()));
  const missing = imported.filter((name) => !(name in sdk));
  expect(missing).toEqual([]);

  const { outputText } = ts.transpileModule(program.replace(IMPORT, ''), {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  });
  process.env.PETSTORE_API_KEY = api.key;
  const logged: unknown[] = [];
  const quiet = { ...console, log: (...line: unknown[]) => logged.push(line), warn: () => undefined, error: () => undefined };
  const given = { petsBaseUrl: api.petsBaseUrl, messagesBaseUrl: api.origin, apiKey: api.key, console: quiet };
  const bindings = { ...Object.fromEntries(imported.map((name) => [name, sdk[name as keyof typeof sdk]])), ...given };
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- running the README's own text is the point
  const example = new Function(...Object.keys(bindings), `return (async () => {\n${outputText}\n})();`) as (
    ...values: unknown[]
  ) => Promise<void>;
  await example(...Object.values(bindings));
  expect(logged.length).toBeGreaterThan(0);
});
