/**
 * AWS's own validators over a synthesized assembly (scripts/synth-stages.ts): cfn-lint on every template and, for a
 * `compliance: control-tower` synthesis, cfn-guard with AWS Control Tower's proactive-control rules as AWS publishes
 * them for CDK (@cdklabs/cdk-validator-cfnguard: the rules and the cfn-guard binary). A finding passes only when
 * docs/compliance.md lists its rule, with the reason it cannot apply.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { arch } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const GUARD_PACKAGE = join(ROOT, 'node_modules', '@cdklabs', 'cdk-validator-cfnguard');
const GUARD = join(GUARD_PACKAGE, 'bin', 'ubuntu', arch() === 'arm64' ? 'aarch64' : 'x86_64', 'cfn-guard');
const CONTROL_TOWER_RULES = join(GUARD_PACKAGE, 'rules', 'control-tower', 'cfn-guard');
const EXCEPTIONS_DOC = join(ROOT, 'docs', 'compliance.md');

/** One rule's complaint about one resource of one template. */
export interface Finding {
  readonly tool: 'cfn-lint' | 'cfn-guard';
  readonly rule: string;
  readonly template: string;
  readonly resource: string;
  /** The resource's type, `AWS::CloudWatch::Dashboard`. */
  readonly type: string;
}

/**
 * The rules docs/compliance.md lets pass: the first cell of each row of its tables, in backticks; `rule:type` lets a
 * rule pass on resources of that type only.
 */
export function documentedExceptions(markdown: string = readFileSync(EXCEPTIONS_DOC, 'utf8')): Set<string> {
  return new Set([...markdown.matchAll(/^\| `([A-Za-z0-9_]+(?::[A-Za-z0-9:]+)?)` +\|/gm)].map((match) => match[1] as string));
}

const typesOf = (template: string): Record<string, { Type: string }> =>
  (JSON.parse(readFileSync(template, 'utf8')) as { Resources: Record<string, { Type: string }> }).Resources;

/** A tool's JSON output; its exit code says only that it found something. */
function runJson(command: string, args: readonly string[]): Promise<unknown> {
  return new Promise((done, fail) => {
    execFile(command, [...args], { maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      try {
        done(JSON.parse(stdout || '[]'));
      } catch {
        fail(new Error(`${command} ${args.join(' ')} failed: ${error?.message ?? ''}\n${stderr}${stdout}`.trim()));
      }
    });
  });
}

async function cfnLint(template: string): Promise<Finding[]> {
  const matches = (await runJson('cfn-lint', ['--format', 'json', '--', template])) as {
    Rule: { Id: string };
    Location: { Path?: readonly (string | number)[] };
  }[];
  const resources = typesOf(template);
  return matches.map(({ Rule, Location }) => {
    const resource = String(Location.Path?.[1] ?? '?');
    return { tool: 'cfn-lint', rule: Rule.Id, template, resource, type: resources[resource]?.Type ?? '?' };
  });
}

/** Every `/Resources/<id>` path under a failed rule of cfn-guard's structured report. */
function resourcesIn(value: unknown, found: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const item of value) resourcesIn(item, found);
  else if (value && typeof value === 'object')
    for (const [key, inner] of Object.entries(value)) {
      const id = key === 'path' && typeof inner === 'string' ? /^\/Resources\/([^/]+)/.exec(inner)?.[1] : undefined;
      if (id) found.add(id);
      else resourcesIn(inner, found);
    }
  return found;
}

async function cfnGuard(template: string): Promise<Finding[]> {
  const args = ['validate', '--rules', CONTROL_TOWER_RULES, '--data', template, '--output-format', 'json', '--show-summary', 'none'];
  const reports = (await runJson(GUARD, [...args, '--structured'])) as { not_compliant?: { Rule: { name: string } }[] }[];
  const resources = typesOf(template);
  return reports.flatMap((report) =>
    (report.not_compliant ?? []).flatMap(({ Rule }) =>
      [...resourcesIn(Rule, new Set())].map((resource) => ({
        tool: 'cfn-guard' as const,
        rule: Rule.name,
        template,
        resource,
        type: resources[resource]?.Type ?? '?',
      })),
    ),
  );
}

/** The findings of every template in `assembly`; `controlTower`: cfn-guard's too. */
export async function checkTemplates(assembly: string, controlTower: boolean): Promise<{ findings: Finding[]; templates: number }> {
  const templates = readdirSync(assembly)
    .filter((name) => name.endsWith('.template.json'))
    .map((name) => join(assembly, name));
  const findings = await Promise.all(templates.map(async (t) => [...(await cfnLint(t)), ...(controlTower ? await cfnGuard(t) : [])]));
  return { findings: findings.flat(), templates: templates.length };
}

/** What was found and not excepted, one line per rule: `cfn-guard lambda_inside_vpc_check: Fn1, Fn2 (PetStore-dev)`. */
export function unexcused(findings: readonly Finding[], exceptions: ReadonlySet<string> = documentedExceptions()): string[] {
  const byRule = new Map<string, Set<string>>();
  for (const { tool, rule, template, resource, type } of findings) {
    if (exceptions.has(rule) || exceptions.has(`${rule}:${type}`)) continue;
    const key = `${tool} ${rule} (${template.split('/').at(-1)?.replace('.template.json', '') ?? template})`;
    byRule.set(key, (byRule.get(key) ?? new Set()).add(resource));
  }
  return [...byRule].map(([key, resources]) => `${key}: ${[...resources].sort().join(', ')}`);
}
