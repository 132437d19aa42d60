/**
 * The docs' dollars are the bench's: the cost model (bench/costs.ts, a pure function) run on the inputs the last
 * `npm run bench -- --write-results` recorded in bench/costs.json gives every row of the cost tables that
 * docs/capacity.md and docs/deploy-reference.md show, cell for cell.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { costTables, type CostInputs } from '../../bench/costs';

const ROOT = resolve(__dirname, '../..');
const inputs = JSON.parse(readFileSync(resolve(ROOT, 'bench/costs.json'), 'utf8')) as CostInputs;
const [perMillion, idle, month] = costTables(inputs);

/** The rows of the Markdown table a doc shows under `<!-- cost table: <key> -->`, as trimmed cells, header rows left out. */
function documentedRows(doc: string, key: string): string[][] {
  const lines = readFileSync(resolve(ROOT, doc), 'utf8').split('\n');
  const marker = lines.indexOf(`<!-- cost table: ${key} -->`);
  if (marker === -1) throw new Error(`${doc} has no <!-- cost table: ${key} --> table`);
  const table: string[] = [];
  for (const line of lines.slice(marker + 2)) {
    if (!line.startsWith('|')) break;
    table.push(line);
  }
  return table.slice(2).map((line) =>
    line
      .slice(1, -1)
      .split('|')
      .map((cell) => cell.trim()),
  );
}

test.each([
  ['docs/capacity.md', 'per-million', perMillion],
  ['docs/capacity.md', 'month', month],
  ['docs/deploy-reference.md', 'idle', idle],
])('%s shows the bench’s %s table: every row, every figure', (doc, key, table) => {
  expect(table?.rows.length).toBeGreaterThan(2);
  expect(documentedRows(doc, key)).toEqual(table?.rows);
});

test('docs/capacity.md states the access-log bytes of a keyed read the bench measured, with a browser’s and with the SDK’s User-Agent', () => {
  const text = readFileSync(resolve(ROOT, 'docs/capacity.md'), 'utf8');
  const stated = /User-Agent: ([\d,]+) bytes for a keyed read from a browser, ([\d,]+) from/.exec(text);
  const { browser, sdk } = inputs.measured.requests.getPet.accessLogBytes;
  expect(stated?.slice(1, 3).map((figure) => Number(figure.replace(',', '')))).toEqual([browser, sdk]);
});
