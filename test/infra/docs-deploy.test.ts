/**
 * docs/deploy.md against the template it describes: every stack output is in its outputs table and every
 * row is an output, and the alarm and metric counts its cost table bills are the template's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STAGES } from '#shared/stages';
import { PROJECT_ROOT } from './support/project-root';
import { resourcesOfType, synth } from './support/synth';

const DEPLOY_MD = readFileSync(join(PROJECT_ROOT, 'docs/deploy.md'), 'utf8');

/** The text of a `## ` section, up to the next one. */
const section = (title: string): string => {
  const start = DEPLOY_MD.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`docs/deploy.md has no section ${title}`);
  const end = DEPLOY_MD.indexOf('\n## ', start + 1);
  return DEPLOY_MD.slice(start, end < 0 ? undefined : end);
};

/** A custom domain with its own certificate and no hosted zone: the only way the DNS-target outputs appear. */
const CUSTOM_DOMAINS = {
  petsDomain: 'api.example.com',
  messagesDomain: 'messages.example.com',
  certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/00000000-0000-0000-0000-000000000000',
};

it("the Outputs table lists every output of the stage's stack, and nothing else", () => {
  const documented = section('Outputs')
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`(\w+)`/g)].map((match) => match[1]));
  const templates = [
    ...STAGES.map((stage) => synth(stage).template),
    synth('prod', CUSTOM_DOMAINS, 'eu-west-1').template,
    synth('prod', { frontDoor: 'true' }, 'us-east-1').template,
  ];
  const outputs = new Set(templates.flatMap((template) => Object.keys(template.toJSON().Outputs as object)));
  expect([...documented].sort()).toEqual([...outputs].sort());
});

it('the cost table counts the alarms, the alarm metrics and the access-log metrics of every stage', () => {
  const costs = section('Costs at a glance');
  const claim =
    /dev: (\d+) alarms watching (\d+) alarm metrics; staging, prod: (\d+) alarms watching (\d+) alarm metrics; and (\d+) custom metrics from the access-log filters/.exec(
      costs,
    );
  expect(claim).not.toBeNull();
  const [, devAlarms, devMetrics, alarms, alarmMetrics, filterMetrics] = (claim ?? []).map(Number);
  for (const stage of STAGES) {
    const { template } = synth(stage);
    const stageAlarms = [...resourcesOfType(template, 'AWS::CloudWatch::Alarm').values()];
    // CloudWatch bills an alarm per metric it watches: one, or each metric of its math expression.
    const watched = stageAlarms.map((alarm) =>
      Array.isArray(alarm.Properties.Metrics)
        ? (alarm.Properties.Metrics as { MetricStat?: unknown }[]).filter((m) => m.MetricStat).length
        : 1,
    );
    expect({ stage, alarms: stageAlarms.length, alarmMetrics: watched.reduce((sum, count) => sum + count, 0) }).toEqual({
      stage,
      alarms: stage === 'dev' ? devAlarms : alarms,
      alarmMetrics: stage === 'dev' ? devMetrics : alarmMetrics,
    });
    expect(resourcesOfType(template, 'AWS::Logs::MetricFilter').size).toBe(filterMetrics);
  }
});
