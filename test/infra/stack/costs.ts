/**
 * What bench/costs.json recorded of each stage's template (bench/stage-inventory.ts: alarms and their metrics,
 * metric filters, dashboards, secrets, keys, web ACLs, the stage check's schedule, memory, tracing, retention, the
 * access-log format) is what the stage synthesizes now: the docs' dollars (test/unit/cost-docs.test.ts) rest on it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CostInputs } from '../../../bench/costs';
import { stageInventory, type TemplateJson } from '../../../bench/stage-inventory';
import { PROJECT_ROOT } from '../support/project-root';
import { synth, variant, type Synthesized } from '../support/synth';

const recorded = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'bench/costs.json'), 'utf8')) as CostInputs).stages;
const templates = ({ template, edge }: Synthesized): TemplateJson[] =>
  [template, ...(edge ? [edge.template] : [])].map((one) => one.toJSON() as TemplateJson);

describe('the bench’s record of each stage’s template (bench/costs.json)', () => {
  it.each([
    ['dev', () => synth('dev')],
    ['staging', () => synth('staging')],
    // As committed, front door and all (the bench synthesizes it in us-east-1: the same resources, in one stack).
    ['prod', () => variant('prodAsCommitted')],
  ] as const)('%s: what the template holds now', (stage, synthesized) => {
    expect(stageInventory(templates(synthesized()))).toEqual(recorded[stage]);
  });
});
