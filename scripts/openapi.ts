/**
 * `npm run openapi`: writes docs/openapi.json from the zod schemas and the route table.
 * `npm run openapi -- --check`: exits 1 when the committed file differs from what would be written.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OPENAPI_FILE, renderOpenApiDocument } from '../openapi/render';

const file = fileURLToPath(new URL(`../${OPENAPI_FILE}`, import.meta.url));
const rendered = renderOpenApiDocument();

if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(file, 'utf8');
  } catch {
    // missing counts as different
  }
  if (committed !== rendered) {
    console.error(`${OPENAPI_FILE} is out of date: run \`npm run openapi\` and commit the result`);
    process.exit(1);
  }
  console.log(`${OPENAPI_FILE} is up to date`);
} else {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, rendered);
  console.log(`wrote ${OPENAPI_FILE}`);
}
