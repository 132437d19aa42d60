/**
 * Following the docs leaves nothing untracked in the clone: the README's pagination loop keeps its headers in a
 * temporary file it removes, and the SDK README's build step (`npm install` in clients/typescript) writes no lockfile.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT as ROOT } from '../support/local-process';
import { useTestApi } from '../support/test-api';

const run = promisify(execFile);
const api = useTestApi();

/** The README's `sh` block that follows `Link` over every page. */
const paginationLoop = (): string => {
  const blocks = [...readFileSync(join(ROOT, 'README.md'), 'utf8').matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map(([, code = '']) => code);
  const block = blocks.find((code) => code.includes('# every page'));
  if (!block) throw new Error('README.md has no "# every page" block');
  return block.slice(block.indexOf('# every page'));
};

test("the README's every-page loop, run where a reader runs it, follows Link to the last page and leaves no file behind", async () => {
  // 101 pets: two pages at the loop's limit of 100.
  for (let index = 0; index < 101; index++)
    expect((await api.call('POST', '/v1/pets', { json: { name: `page ${index}`, categoryId: 1 } })).status).toBe(201);
  const cwd = mkdtempSync(join(tmpdir(), 'petstore-readme-loop-'));
  try {
    const { stdout } = await run('sh', ['-c', paginationLoop()], { cwd, env: { ...process.env, BASE: api.petsBaseUrl, KEY: api.key } });
    const pages = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown[]);
    expect(pages.map((page) => page.length)).toEqual([100, 1]);
    expect(readdirSync(cwd)).toEqual([]);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});

test("npm, in the SDK's folder, writes no package-lock.json (the SDK README's `npm install` step)", async () => {
  const { stdout } = await run('npm', ['config', 'get', 'package-lock'], { cwd: join(ROOT, 'clients/typescript') });
  expect(stdout.trim()).toBe('false');
});
