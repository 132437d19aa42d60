/**
 * Whether a stage may take a commit (.github/workflows/pipeline.yml, before each deploy): only one that contains the
 * commit the stage runs, so that approving an older run after a newer one can never take prod back.
 *
 *   node scripts/promotion-check.ts --stage prod --candidate <sha> --deployed <sha, or empty on a first deploy>
 *
 * Run in the repository's clone (full history: `fetch-depth: 0`). Exit 0: go; 1: refused, and why. Node's own type
 * stripping runs it, with nothing installed: the deploy jobs have no node_modules.
 */
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';

type Verdict = { readonly go: boolean; readonly why: string };

const git = (...args: string[]): boolean => {
  try {
    execFileSync('git', args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

function promotionVerdict(stage: string, candidate: string, deployed: string): Verdict {
  if (!git('cat-file', '-e', `${candidate}^{commit}`)) return { go: false, why: `${candidate} is not a commit of this clone` };
  if (deployed === '') return { go: true, why: `${stage} records no commit yet: a first deploy` };
  if (!git('cat-file', '-e', `${deployed}^{commit}`)) {
    return { go: false, why: `${stage} runs ${deployed}, which this clone's history does not hold (rewritten, or a shallow clone)` };
  }
  if (git('merge-base', '--is-ancestor', deployed, candidate))
    return { go: true, why: `${candidate} contains ${deployed}, which ${stage} runs` };
  return {
    go: false,
    why: `${stage} runs ${deployed}, which ${candidate} does not contain: this deploy would take ${stage} back. Deploy a newer run instead.`,
  };
}

const { values } = parseArgs({
  options: { stage: { type: 'string' }, candidate: { type: 'string' }, deployed: { type: 'string', default: '' } },
});
if (!values.stage || !values.candidate) {
  console.error('usage: node scripts/promotion-check.ts --stage <stage> --candidate <sha> [--deployed <sha>]');
  process.exit(2);
}
const verdict = promotionVerdict(values.stage, values.candidate, values.deployed.trim());
// On GitHub, an error annotation puts the refusal on the run's page.
console.log(
  verdict.go ? `promotion-check: ${verdict.why}` : `${process.env.GITHUB_ACTIONS ? '::error::' : ''}promotion refused: ${verdict.why}`,
);
process.exit(verdict.go ? 0 : 1);
