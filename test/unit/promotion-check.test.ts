/**
 * scripts/promotion-check.ts as the pipeline runs it: Node alone, in a clone, against a real git history of its own.
 *
 *   a ── b ── c   (main)
 *         └── d   (a branch that never reached main)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const SCRIPT = resolve(__dirname, '../../scripts/promotion-check.ts');
const repo = mkdtempSync(join(tmpdir(), 'promotion-check-'));
const git = (...args: string[]): string =>
  execFileSync('git', args, {
    cwd: repo,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.com',
    },
  }).trim();
const commit = (name: string): string => {
  writeFileSync(join(repo, 'file'), name);
  git('commit', '--quiet', '--all', '--message', name);
  return git('rev-parse', 'HEAD');
};

git('init', '--quiet', '--initial-branch=main');
writeFileSync(join(repo, 'file'), '');
git('add', 'file');
const a = commit('a');
const b = commit('b');
const c = commit('c');
git('checkout', '--quiet', '-b', 'side', b);
const d = commit('d');
afterAll(() => rmSync(repo, { recursive: true, force: true }));

function check(candidate: string, deployed: string): { code: number | null; output: string } {
  const args = [SCRIPT, '--stage', 'prod', '--candidate', candidate, '--deployed', deployed];
  const run = spawnSync(process.execPath, args, { cwd: repo, encoding: 'utf8', env: { ...process.env, GITHUB_ACTIONS: 'true' } });
  return { code: run.status, output: `${run.stdout}${run.stderr}`.trim() };
}

it('prod that runs nothing yet takes the candidate', () => {
  expect(check(b, '')).toEqual({ code: 0, output: 'promotion-check: prod records no commit yet: a first deploy' });
});

it('a commit that contains the one prod runs goes ahead, and so does the same commit again', () => {
  expect(check(c, a)).toEqual({ code: 0, output: `promotion-check: ${c} contains ${a}, which prod runs` });
  expect(check(c, c).code).toBe(0);
});

it('a commit older than the one prod runs is refused, loudly on the run page: an older run approved late cannot roll prod back', () => {
  const refused = check(b, c);
  expect(refused.code).toBe(1);
  expect(refused.output).toBe(
    `::error::promotion refused: prod runs ${c}, which ${b} does not contain: this deploy would take prod back. Deploy a newer run instead.`,
  );
});

it('a commit beside the one prod runs (neither contains the other) is refused', () => {
  expect(check(d, c).code).toBe(1);
  expect(check(c, d).code).toBe(1);
});

it('a deployed commit the clone does not hold is refused, naming why', () => {
  const unknown = 'f'.repeat(40);
  expect(check(c, unknown)).toEqual({
    code: 1,
    output: `::error::promotion refused: prod runs ${unknown}, which this clone's history does not hold (rewritten, or a shallow clone)`,
  });
});
