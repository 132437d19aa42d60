/**
 * The stack's template, stage by stage. One jest file on purpose: jest loads aws-cdk-lib afresh for
 * every test file (~5 s each) and each file would synthesize the stages again; here every module in
 * test/infra/stack/ shares one load and one synthesis per stage and context (support/synth.ts's cache).
 */
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
import './stack/throttle-sums';
import './stack/compliance';
