/**
 * Every function of a stage reports its metrics under that stage (shared/metrics.ts, Stage dimension), so stages
 * that share an account keep apart on the dashboard, which filters by stage.
 */
import { DEPLOYED_FUNCTIONS } from '#shared/deployed-functions';
import { STAGE_ENV } from '#shared/function-settings';
import { STAGES } from '#shared/stages';
import { functionNamed, synth } from '../support/synth';

test.each(STAGES)('every function of %s is told its stage', (stage) => {
  const { template } = synth(stage);
  for (const fn of DEPLOYED_FUNCTIONS) {
    const [, resource] = functionNamed(template, fn.name);
    const variables = (resource.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect([fn.name, variables[STAGE_ENV]]).toEqual([fn.name, stage]);
  }
});
