/**
 * `npm run openapi`: writes docs/openapi/{pets,messages,account}.json and the SDK's types generated from them
 * (clients/typescript/src/generated/). `npm run openapi -- --check`: exits 1 when a committed file differs.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';
import { GENERATED_DOCUMENTS } from '#openapi/render';

const SDK_TYPES_DIR = 'clients/typescript/src/generated';

const absolute = (name: string): string => fileURLToPath(new URL(`../${name}`, import.meta.url));

/** The SDK's types for one document, exactly as committed: generated from the document about to be written, not the one on disk. */
function sdkTypes(documentFile: string, document: string): { file: string; render: () => Promise<string> } {
  const file = `${SDK_TYPES_DIR}/${basename(documentFile, '.json')}.ts`;
  return {
    file,
    render: async () => {
      const generated = astToString(await openapiTS(JSON.parse(document) as OpenAPI3, { silent: true }));
      const header =
        `/**\n * Generated from ${documentFile} by openapi-typescript (\`npm run openapi\`): do not edit.\n` +
        ' * `npm run openapi -- --check` fails when this file differs from what the document gives.\n */\n\n';
      const prettier = (await resolveConfig(absolute(file))) ?? {};
      return format(header + generated, { ...prettier, filepath: absolute(file) });
    },
  };
}

const outputs: { file: string; render: () => string | Promise<string> }[] = [];
for (const { file, render } of GENERATED_DOCUMENTS) {
  const document = render();
  outputs.push({ file, render: () => document }, sdkTypes(file, document));
}

const check = process.argv.includes('--check');
let stale = false;
for (const { file: name, render } of outputs) {
  const file = absolute(name);
  const rendered = await render();
  let committed = '';
  try {
    committed = readFileSync(file, 'utf8');
  } catch {
    // missing counts as different
  }
  if (committed === rendered) console.log(`${name} is up to date`);
  else if (check) {
    console.error(`${name} is out of date: run \`npm run openapi\` and commit the result`);
    stale = true;
  } else {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, rendered);
    console.log(`wrote ${name}`);
  }
}
if (stale) process.exit(1);
