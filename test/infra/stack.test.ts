/**
 * The stack's template, stage by stage. One jest file on purpose: jest loads aws-cdk-lib afresh for
 * every test file (~5 s each), so the concerns live in test/infra/stack/ and run in this one.
 */
import './stack/api';
import './stack/functions';
import './stack/data-and-operations';
import './stack/portal';
import './stack/edge';
import './stack/throttle-sums';
