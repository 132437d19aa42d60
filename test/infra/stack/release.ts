/**
 * The release path: each stage as its committed file (config/<stage>.json) says, a `-c` override for one deploy
 * and the line that reports it, the keys refused before anything is built, and the deploy docs against the
 * templates and options they describe.
 */
import { App } from 'aws-cdk-lib';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stageConfig, stageFromContext } from '#lib/stage-config';
import { OPTION_NAMES, PLACEHOLDER } from '#shared/stage-options';
import { STAGES } from '#shared/stages';
import { PROJECT_ROOT } from '../support/project-root';
import { FILLED_IN, onlyResource, resourcesOfType, synth, variant } from '../support/synth';

const CDK_JSON_CONTEXT = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> }).context;

/** The context bin/app.ts reads, as the CDK CLI hands it over: cdk.json's, the CLI's own keys, and the `-c` ones. */
const fromCli = (given: Record<string, unknown>) =>
  stageFromContext(
    new App({ context: { ...CDK_JSON_CONTEXT, 'aws:cdk:enable-path-metadata': true, ...given } }).node.getAllContext() as Record<
      string,
      unknown
    >,
    Object.keys(CDK_JSON_CONTEXT),
  );

describe('prod from config/prod.json', () => {
  it('refuses to build while the file holds placeholders, naming each key, the file and how to fill it in', () => {
    expect(() => stageConfig('prod')).toThrow(
      /^alarmEmail: config\/prod\.json still holds the placeholder "<.*>"; write the real value there, or give one for this deploy: -c alarmEmail=…\nsesFromEmail: config\/prod\.json still holds the placeholder "<.*>".*-c sesFromEmail=…$/,
    );
  });

  const prod = () => variant('prodAsCommitted');

  it('has termination protection on its stack and its edge stack; dev and staging have none', () => {
    expect(prod().stack.terminationProtection).toBe(true);
    expect(prod().edge?.stack.terminationProtection).toBe(true);
    for (const stage of ['dev', 'staging'] as const) expect(synth(stage).stack.terminationProtection).toBe(false);
  });

  it('puts the front door the file names before the three APIs: CloudFront in its stack, the WAF web ACL in us-east-1', () => {
    const { template, edge } = prod();
    expect(resourcesOfType(template, 'AWS::CloudFront::Distribution').size).toBe(4); // pets, messages, account, the portal
    const [, acl] = onlyResource(edge?.template ?? template, 'AWS::WAFv2::WebACL', () => true);
    expect(acl.Properties).toMatchObject({ Scope: 'CLOUDFRONT' });
    const perIp = (acl.Properties.Rules as { Name: string; Statement: { RateBasedStatement?: { Limit: number } } }[]).map((rule) => [
      rule.Name,
      rule.Statement.RateBasedStatement?.Limit,
    ]);
    expect(perIp).toEqual(expect.arrayContaining([expect.arrayContaining([1_200]), expect.arrayContaining([6_000])]));
  });

  it("keeps and protects its tables, subscribes the file's address and sends through SES", () => {
    const { template } = prod();
    for (const table of resourcesOfType(template, 'AWS::DynamoDB::Table').values()) {
      expect({ policy: table.DeletionPolicy, protection: table.Properties.DeletionProtectionEnabled }).toEqual({
        policy: 'Retain',
        protection: true,
      });
    }
    expect([...resourcesOfType(template, 'AWS::SNS::Subscription').values()].map((s) => s.Properties.Endpoint)).toEqual([
      'ops@example.com',
    ]);
    const [, pool] = onlyResource(template, 'AWS::Cognito::UserPool', () => true);
    expect(pool.Properties.EmailConfiguration).toMatchObject({ EmailSendingAccount: 'DEVELOPER', From: 'no-reply@example.com' });
  });
});

describe('the command line overrides one deploy, and says so', () => {
  it('without -c keys the synth reports the file alone', () => {
    expect(fromCli({ stage: 'staging' }).report).toBe('PetStore-staging: config/staging.json');
  });

  it('a -c key replaces the file’s value for this deploy and is named in the report; the rest stays as the file says', () => {
    const { config, report } = fromCli({ stage: 'prod', ...FILLED_IN, frontDoor: 'false' });
    expect(report).toBe(
      'PetStore-prod: config/prod.json; from the command line: alarmEmail=ops@example.com, sesFromEmail=no-reply@example.com, frontDoor=false',
    );
    expect(config.frontDoor).toBeUndefined();
    expect({ terminationProtection: config.terminationProtection, deletionProtection: config.deletionProtection }).toEqual({
      terminationProtection: true,
      deletionProtection: true,
    });
  });

  it('`-c stage` picks the file; an unknown stage is refused', () => {
    expect(fromCli({}).config.stage).toBe('dev');
    expect(() => fromCli({ stage: 'production' })).toThrow('unknown stage "production": use dev, staging, prod');
  });

  it('a mistyped key (corsOrigin for corsOrigins) is refused, naming where it came from and listing every option', () => {
    expect(() => fromCli({ stage: 'dev', corsOrigin: 'https://app.example.com' })).toThrow(
      `unknown option corsOrigin (-c); the options are: ${OPTION_NAMES.join(', ')}`,
    );
  });

  it('front door limits on the command line of a stage without the front door are refused', () => {
    expect(() => fromCli({ stage: 'staging', frontDoorKeyRateLimit: '100' })).toThrow(
      'frontDoorKeyRateLimit: given without frontDoor, which it is for',
    );
  });
});

const docs = (path: string): string => readFileSync(join(PROJECT_ROOT, path), 'utf8');

/** The text of a `## ` section, up to the next one. */
const section = (text: string, title: string): string => {
  const start = text.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`no section ${title}`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
};

/** The first column's backticked names of a section's table. */
const firstColumn = (text: string): string[] =>
  text
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`(\w+)`/g)].map((match) => match[1] ?? ''));

describe('the deploy docs against what they describe', () => {
  const REFERENCE = 'docs/deploy-reference.md';

  it('the options table lists every key a stage file may hold, and nothing else, with each stage’s committed value', () => {
    const rows = section(docs(REFERENCE), 'Options')
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => line.split('|').map((cell) => cell.trim()));
    expect(rows.map(([, key]) => key?.replaceAll('`', '')).sort()).toEqual([...OPTION_NAMES].sort());
    const shown = (value: unknown): string =>
      value === undefined
        ? '—'
        : typeof value === 'string' && PLACEHOLDER.test(value)
          ? 'placeholder'
          : JSON.stringify(value).replace(/^"(.*)"$/, '$1');
    for (const [, key = '', ...values] of rows) {
      const committed = STAGES.map((stage) =>
        shown((JSON.parse(docs(`config/${stage}.json`)) as Record<string, unknown>)[key.replaceAll('`', '')]),
      );
      expect({ key, values: values.slice(0, 3) }).toEqual({ key, values: committed });
    }
  });

  it("the Outputs table lists every output of the stage's stack, and nothing else", () => {
    const templates = [
      ...STAGES.map((stage) => synth(stage).template),
      // A custom domain with its own certificate and no hosted zone: the only way the DNS-target outputs appear.
      variant('stagingWithOptions').template,
      variant('prodAsCommitted').template,
    ];
    const outputs = new Set(templates.flatMap((template) => Object.keys(template.toJSON().Outputs as object)));
    expect(firstColumn(section(docs(REFERENCE), 'Outputs')).sort()).toEqual([...outputs].sort());
  });

  it('the cost table counts the alarms, the alarm metrics and the access-log metrics of every stage', () => {
    const claim =
      /dev: (\d+) alarms watching (\d+) alarm metrics; staging, prod: (\d+) alarms watching (\d+) alarm metrics; and (\d+) custom metrics from the access-log filters/.exec(
        section(docs(REFERENCE), 'Costs at a glance'),
      );
    expect(claim).not.toBeNull();
    const [, devAlarms, devMetrics, stagedAlarms, stagedMetrics, filterMetrics] = (claim ?? []).map(Number);
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
        alarms: stage === 'dev' ? devAlarms : stagedAlarms,
        alarmMetrics: stage === 'dev' ? devMetrics : stagedMetrics,
      });
      expect(resourcesOfType(template, 'AWS::Logs::MetricFilter').size).toBe(filterMetrics);
    }
  });

  it('every command of the deploy docs runs from a fresh clone: npm scripts that exist, -c keys that are options, no bare npx cdk', () => {
    const scripts = Object.keys((JSON.parse(docs('package.json')) as { scripts: Record<string, string> }).scripts);
    const wrong = [docs('docs/deploy.md'), docs(REFERENCE)].flatMap((text) => {
      const commands = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? '').join('\n');
      return [
        ...(/(^|[\s;&|(])npx cdk\b/m.test(commands) ? ['npx cdk'] : []),
        ...[...commands.matchAll(/npm run (?:--silent )?([\w:-]+)/g)].map((m) => m[1] ?? '').filter((name) => !scripts.includes(name)),
        ...[...commands.matchAll(/-c (\w+)=/g)]
          .map((m) => m[1] ?? '')
          .filter((key) => key !== 'stage' && !(OPTION_NAMES as string[]).includes(key)),
      ];
    });
    expect(wrong).toEqual([]);
  });
});
