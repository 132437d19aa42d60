/**
 * Part 5: `npm run dev`'s reload. The dev server (local/dev/start.ts --watch) runs on a copy of the project, so
 * the bench never edits the sources; each sample saves an edit of a handler there and times save → the first
 * answer of the new code, with one client asking back to back. Between samples the bench waits as long as a
 * developer would between saves at the very least (THINK_MS), so the reload's spare worker is ready, as it is
 * in use.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { issueApiKey } from '#auth/api-keys';
import type { BudgetCheck, Table } from './report';
import { median, ms } from './stats';

export const DEV_RELOAD_BUDGET_MS = 2_000;
const THINK_MS = 1_500;
const PROJECT_ROOT = resolve(import.meta.dirname, '..');
const HANDLER = 'lambda/handlers/list-pets.ts';
const UNEDITED = 'return jsonResponse(200, page.pets);';

export async function runDevReload(workDir: string, samples: number): Promise<{ table: Table; checks: BudgetCheck[] }> {
  const copy = mkdtempSync(join(workDir, 'dev-tree-'));
  for (const part of ['lambda', 'shared', 'config', 'lib', 'local', 'portal', 'docs', 'package.json', 'tsconfig.json']) {
    cpSync(join(PROJECT_ROOT, part), join(copy, part), { recursive: true });
  }
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  const dataDir = mkdtempSync(join(tmpdir(), 'petstore-bench-dev-'));
  const key = issueApiKey({ accountId: 'acct_bench' }).key;
  const server = spawn(process.execPath, ['--import', 'tsx', 'local/dev/start.ts', '--watch'], {
    cwd: copy,
    env: {
      ...process.env,
      PORT: '0',
      PETSTORE_DATA_DIR: dataDir,
      PETSTORE_DEV_API_KEY: key,
      PETSTORE_THROTTLE: 'off',
      PETSTORE_EXIT_WITH_PARENT: '1',
    },
  });
  let output = '';
  server.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const printed = (pattern: RegExp, from = 0): Promise<RegExpExecArray> =>
    new Promise((found, failed) => {
      const ended = (): void => failed(new Error(`the dev server ended:\n${output}`));
      const look = (): void => {
        const match = pattern.exec(output.slice(from));
        if (!match) return;
        server.stdout.off('data', look);
        server.off('exit', ended);
        found(match);
      };
      server.stdout.on('data', look);
      server.once('exit', ended);
      look();
    });

  const latencies: number[] = [];
  const loads: number[] = [];
  try {
    const [, petsBaseUrl] = await printed(/Pets base URL: (\S+)\n/);
    const file = join(copy, HANDLER);
    const original = readFileSync(file, 'utf8');
    if (!original.includes(UNEDITED)) throw new Error(`${HANDLER} no longer has ${UNEDITED}`);
    for (let sample = 1; sample <= samples; sample++) {
      await sleep(THINK_MS);
      const from = output.length;
      const savedAt = performance.now();
      writeFileSync(file, original.replace(UNEDITED, `return jsonResponse(200, page.pets, { 'x-bench-reload': '${sample}' });`));
      while (performance.now() - savedAt < 60_000) {
        const answer = await fetch(`${petsBaseUrl}/pets`, { headers: { authorization: `Bearer ${key}` } });
        await answer.arrayBuffer();
        if (answer.headers.get('x-bench-reload') === String(sample)) break;
      }
      latencies.push(performance.now() - savedAt);
      const [, loaded] = await printed(/Reloaded the functions \(.*\) in (\d+) ms/, from);
      loads.push(Number(loaded));
    }
  } finally {
    server.kill('SIGTERM');
    if (server.exitCode === null) await new Promise((ended) => server.once('exit', ended));
    rmSync(dataDir, { recursive: true, force: true });
  }

  const sorted = [...latencies].sort((a, b) => a - b);
  const worst = sorted.at(-1) ?? Number.NaN;
  return {
    table: {
      title: 'npm run dev: save → first answer of the new code',
      note: [
        `${samples} edits of ${HANDLER} in a copy of the project, ${THINK_MS} ms apart, in order: ${latencies.map((value) => ms(value, 0)).join(', ')} ms.`,
        'Loading: what the server prints, the new worker loading every handler; the rest is the quiet period and the first invocation.',
      ].join(' '),
      columns: ['samples', 'min ms', 'median ms', 'max ms', 'median loading ms'],
      rows: [[String(samples), ms(sorted[0] ?? Number.NaN, 0), ms(median(latencies), 0), ms(worst, 0), ms(median(loads), 0)]],
    },
    checks: [
      {
        name: 'npm run dev reload (save → served), every sample',
        limit: `< ${DEV_RELOAD_BUDGET_MS} ms`,
        measured: `max ${ms(worst, 0)} ms`,
        passed: worst < DEV_RELOAD_BUDGET_MS,
      },
    ],
  };
}
