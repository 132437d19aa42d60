/**
 * `npm run openapi`: writes docs/openapi/{pets,messages,account}.json from the zod schemas and
 * the route table. `npm run openapi -- --check`: exits 1 when a committed file differs from what would be written.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GENERATED_DOCUMENTS } from '#openapi/render';

const check = process.argv.includes('--check');
let stale = false;
for (const { file: name, render } of GENERATED_DOCUMENTS) {
  const file = fileURLToPath(new URL(`../${name}`, import.meta.url));
  const rendered = render();
  if (check) {
    let committed = '';
    try {
      committed = readFileSync(file, 'utf8');
    } catch {
      // missing counts as different
    }
    if (committed === rendered) console.log(`${name} is up to date`);
    else {
      console.error(`${name} is out of date: run \`npm run openapi\` and commit the result`);
      stale = true;
    }
  } else {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, rendered);
    console.log(`wrote ${name}`);
  }
}
if (stale) process.exit(1);
