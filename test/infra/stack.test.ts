/**
 * The stack's template, stage by stage. One jest file on purpose: jest loads aws-cdk-lib afresh for
 * every test file (~5 s each) and each file would synthesize the stages again; here every module in
 * test/infra/stack/ shares one load and support/synth.ts's syntheses: the three committed stages and
 * its VARIANTS, each made once.
 */
import { synthesisCount } from './support/synth';
import './stack/api';
import './stack/functions';
import './stack/data-and-operations';
import './stack/portal';
import './stack/edge';
import './stack/capacity';
import './stack/dashboard';
import './stack/identity';
import './stack/portal-csp';
import './stack/recovery';
import './stack/safe-deploys';
import './stack/throttling';
import './stack/ci';
import './stack/release';
import './stack/rollouts';
import './stack/canary-judgement';
import './stack/throttle-sums';
import './stack/status-shards';
import './stack/compliance';
import './stack/costs';

/** Each synthesis costs seconds of CPU: a new one is a decision, made here, not a side effect of a new test. */
const SYNTHESES_AT_MOST = 11;

afterAll(() => {
  expect(synthesisCount()).toBeLessThanOrEqual(SYNTHESES_AT_MOST);
});
