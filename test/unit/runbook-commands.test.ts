/**
 * The commands the docs tell an operator to run, read from every ```sh block and every inline `aws …` of README.md
 * and docs/ (and the fixes `npm run doctor` prints): each AWS CLI line names a command of the AWS CLI v2 with its required parameters and only options that
 * command takes, and each `npm run` names a script of package.json. What an AWS CLI command requires and takes is
 * written below once, from `aws <service> <command> help` of the AWS CLI 2.9; a command the docs start using must
 * be added here, and an entry no doc uses any more fails too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../infra/support/project-root';

interface CliCommand {
  /** Each entry must be present; `a|b` means one of them. */
  readonly required: readonly string[];
  /** The command's other options that the docs use. */
  readonly optional: readonly string[];
  /** Options that must come together or not at all. */
  readonly together?: readonly string[];
}

const AWS_CLI: Record<string, CliCommand> = {
  'cloudformation list-stack-resources': { required: ['--stack-name'], optional: [] },
  'cloudwatch describe-alarms': { required: [], optional: ['--state-value', '--alarm-name-prefix', '--alarm-names'] },
  'cognito-idp list-users': { required: ['--user-pool-id'], optional: ['--filter'] },
  'ce update-cost-allocation-tags-status': { required: ['--cost-allocation-tags-status'], optional: [] },
  // "If applicationName is specified, then deploymentGroupName must be specified" (and the other way round).
  'deploy list-deployments': {
    required: [],
    optional: ['--application-name', '--deployment-group-name', '--include-only-statuses'],
    together: ['--application-name', '--deployment-group-name'],
  },
  'deploy stop-deployment': { required: ['--deployment-id'], optional: ['--auto-rollback-enabled', '--no-auto-rollback-enabled'] },
  'dynamodb delete-table': { required: ['--table-name'], optional: [] },
  'dynamodb list-backups': { required: [], optional: ['--backup-type', '--table-name'] },
  'dynamodb restore-table-from-backup': { required: ['--target-table-name', '--backup-arn'], optional: [] },
  'dynamodb restore-table-to-point-in-time': {
    required: ['--target-table-name', '--source-table-name|--source-table-arn', '--restore-date-time|--use-latest-restorable-time'],
    optional: [],
  },
  'dynamodb tag-resource': { required: ['--resource-arn', '--tags'], optional: [] },
  'dynamodb update-continuous-backups': { required: ['--table-name', '--point-in-time-recovery-specification'], optional: [] },
  'dynamodb update-table': { required: ['--table-name'], optional: ['--deletion-protection-enabled', '--no-deletion-protection-enabled'] },
  'dynamodb update-time-to-live': { required: ['--table-name', '--time-to-live-specification'], optional: [] },
  'dynamodb wait table-exists': { required: ['--table-name'], optional: [] },
  'resourcegroupstaggingapi get-resources': { required: [], optional: ['--tag-filters', '--resource-type-filters'] },
  'sns list-subscriptions-by-topic': { required: ['--topic-arn'], optional: [] },
  'service-quotas request-service-quota-increase': { required: ['--service-code', '--quota-code', '--desired-value'], optional: [] },
  'sesv2 create-email-identity': { required: ['--email-identity'], optional: [] },
  'sesv2 put-account-details': { required: ['--mail-type', '--website-url'], optional: ['--production-access-enabled'] },
};

/** Options every AWS CLI command takes. */
const GLOBAL_OPTIONS = ['--query', '--output', '--region', '--profile', '--no-cli-pager'];
/** `aws dynamodb wait <waiter>`: three words name the command. */
const GROUPS = new Set(['wait']);

/** The docs, and the doctor, whose every FAIL prints the command that fixes it. */
const DOCS = [
  'README.md',
  'scripts/doctor.ts',
  ...readdirSync(join(PROJECT_ROOT, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`),
];

/** The shell a doc shows: its ```sh blocks, continuation lines joined, comments dropped; and its inline `aws …`. */
function shellOf(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((match) =>
    (match[1] ?? '')
      .replace(/\\\n\s*/g, ' ')
      .split('\n')
      .map((line) => line.replace(/\s+#\s.*$/, '')),
  );
  const inline = [...markdown.matchAll(/`(aws [a-z0-9-]+ [a-z0-9-]+[^`]*)`/g)].map((match) => match[1] ?? '');
  return [...blocks, ...inline];
}

/** Words of a shell line, quotes kept together. */
const words = (line: string): string[] => [...line.matchAll(/"[^"]*"|'[^']*'|[^\s]+/g)].map((match) => match[0]);

interface Invocation {
  readonly doc: string;
  readonly command: string;
  readonly options: string[];
}

/** Every `aws <service> <command> …` of a line (also inside `$(…)`), up to the end of its command. */
function awsInvocations(doc: string, line: string): Invocation[] {
  return [...line.matchAll(/(?:^|[\s(])aws\s+(.*)$/g)].map((match) => {
    const tail = words((match[1] ?? '').split(/\)|\||&&|;|\s>\s/)[0] ?? '');
    const length = GROUPS.has(tail[1] ?? '') ? 3 : 2;
    return {
      doc,
      command: tail.slice(0, length).join(' '),
      options: tail
        .slice(length)
        .filter((word) => word.startsWith('--'))
        .map((word) => word.split('=')[0] ?? word),
    };
  });
}

const lines = DOCS.flatMap((doc) => shellOf(readFileSync(join(PROJECT_ROOT, doc), 'utf8')).map((line) => ({ doc, line })));
const invocations = lines.flatMap(({ doc, line }) => awsInvocations(doc, line)).filter((call) => !call.command.startsWith('configure'));

it('the docs show AWS CLI commands (the reader of this test is not fooled by an empty list)', () => {
  expect(invocations.length).toBeGreaterThan(15);
});

it.each(invocations.map((call) => [`${call.doc}: aws ${call.command} ${call.options.join(' ')}`, call] as const))(
  '%s: a command of the AWS CLI v2, with its required parameters and only options it takes',
  (_line, { command, options }) => {
    const known = AWS_CLI[command];
    if (!known) throw new Error(`aws ${command} is not in this test's table: add what it requires and takes, from \`aws ${command} help\``);
    for (const required of known.required)
      expect([command, required, required.split('|').some((option) => options.includes(option))]).toEqual([command, required, true]);
    const taken = new Set([...known.required.flatMap((required) => required.split('|')), ...known.optional, ...GLOBAL_OPTIONS]);
    expect(options.filter((option) => !taken.has(option))).toEqual([]);
    if (known.together) {
      const present = known.together.filter((option) => options.includes(option));
      expect([command, present.length === 0 || present.length === known.together.length]).toEqual([command, true]);
    }
  },
);

it('every command of the table is one a doc uses', () => {
  const used = new Set(invocations.map((call) => call.command));
  expect(Object.keys(AWS_CLI).filter((command) => !used.has(command))).toEqual([]);
});

it('a stack with more than 100 resources is read with list-stack-resources, which pages, never describe-stack-resources', () => {
  expect(invocations.filter((call) => call.command === 'cloudformation describe-stack-resources')).toEqual([]);
});

it('every `npm run` of a doc names a script of package.json', () => {
  const scripts = Object.keys((JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: object }).scripts);
  const named = lines.flatMap(({ doc, line }) =>
    [...line.matchAll(/npm run (?:--silent )?([a-z0-9:-]+)/g)].map((match) => `${doc}: ${match[1]}`),
  );
  expect(named.length).toBeGreaterThan(20);
  expect(named.filter((entry) => !scripts.includes(entry.split(': ')[1] ?? ''))).toEqual([]);
});

it("prod's smoke run in a doc is read-only: prod refuses the others", () => {
  const prodSmoke = lines.filter(({ line }) => /npm run smoke -- --stage prod/.test(line));
  expect(prodSmoke.length).toBeGreaterThan(0);
  expect(prodSmoke.filter(({ line }) => !line.includes('--read-only'))).toEqual([]);
});
