/**
 * The README's table of error codes is what a client author codes against: it must list exactly the codes
 * the pets and messages APIs can answer, each with its status (lambda/contract/schemas/error.ts).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ERROR_CODES } from '#contract/schemas/error';

const README = readFileSync(resolve(__dirname, '../../README.md'), 'utf8');

test("the README's error table lists every code the API answers, with its status, and no other", () => {
  const section = README.slice(README.indexOf('\n## Errors'), README.indexOf('\n## ', README.indexOf('\n## Errors') + 1));
  const rows = [...section.matchAll(/^\| (\d{3}) +\| `([a-z_]+)` +\|/gm)].map(([, status, code]) => [code, Number(status)]);
  expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(Object.entries(ERROR_CODES).map(([code, docs]) => [code, docs.status])));
  expect(rows).toHaveLength(Object.keys(ERROR_CODES).length);
});
