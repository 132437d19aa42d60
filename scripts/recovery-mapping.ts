/**
 * The mapping `cdk import --resource-mapping` takes to bring a destroyed stage back onto the resources it kept
 * (docs/deploy-reference.md, Recovery), from the template and the kept resources' tags (CloudFormation's logical-id
 * tag outlives the stack) or saved stack outputs. Reads files only. Every kept importable resource must be mapped (or `--partial`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

/** The kept data resources CloudFormation can import, and the property that identifies one. */
export const IMPORTABLE = {
  'AWS::DynamoDB::Table': { identifier: 'TableName', arnType: 'dynamodb', arnResource: 'table/' },
  'AWS::Cognito::UserPool': { identifier: 'UserPoolId', arnType: 'cognito-idp', arnResource: 'userpool/' },
} as const;
type ImportableType = keyof typeof IMPORTABLE;

const LOGICAL_ID_TAG = 'aws:cloudformation:logical-id';

export type ResourceMapping = Record<string, Record<string, string>>;

export interface CloudFormationTemplate {
  readonly Resources: Record<string, { readonly Type: string; readonly DeletionPolicy?: string }>;
  readonly Outputs?: Record<string, { readonly Value: unknown }>;
}

/** `aws resourcegroupstaggingapi get-resources --output json`, as much of it as is read here. */
export interface TaggedResources {
  readonly ResourceTagMappingList: readonly { readonly ResourceARN: string; readonly Tags?: readonly { Key: string; Value: string }[] }[];
}

/** `missing`: kept resources of the template nothing said where to find. */
export interface MappingResult {
  readonly mapping: ResourceMapping;
  readonly missing: readonly string[];
}

/** The logical ids of the resources a destroy keeps and `cdk import` can take back, with their types. */
export function keptResources(template: CloudFormationTemplate): Map<string, ImportableType> {
  const kept = new Map<string, ImportableType>();
  for (const [id, { DeletionPolicy, Type }] of Object.entries(template.Resources))
    if (DeletionPolicy === 'Retain' && Type in IMPORTABLE) kept.set(id, Type as ImportableType);
  return kept;
}

/** `arn:aws:dynamodb:eu-west-1:123:table/PetStore-prod-…` → `PetStore-prod-…`, when the ARN is of that type. */
function identifierFromArn(arn: string, type: ImportableType): string | undefined {
  const { arnType, arnResource } = IMPORTABLE[type];
  const parts = arn.split(':');
  const resource = parts.slice(5).join(':');
  if (parts[0] !== 'arn' || parts[2] !== arnType || !resource.startsWith(arnResource)) return undefined;
  const identifier = resource.slice(arnResource.length);
  return identifier.length > 0 && !identifier.includes('/') ? identifier : undefined;
}

export function mappingFromTags(template: CloudFormationTemplate, tagged: TaggedResources): MappingResult {
  const kept = keptResources(template);
  const mapping: ResourceMapping = {};
  for (const { ResourceARN, Tags = [] } of tagged.ResourceTagMappingList) {
    const logicalId = Tags.find((tag) => tag.Key === LOGICAL_ID_TAG)?.Value;
    const type = logicalId === undefined ? undefined : kept.get(logicalId);
    if (logicalId === undefined || type === undefined) continue;
    const identifier = identifierFromArn(ResourceARN, type);
    if (identifier === undefined) continue;
    if (mapping[logicalId]) {
      throw new Error(`two resources claim ${logicalId}: ${mapping[logicalId][IMPORTABLE[type].identifier]} and ${identifier}`);
    }
    mapping[logicalId] = { [IMPORTABLE[type].identifier]: identifier };
  }
  return { mapping, missing: [...kept.keys()].filter((id) => !mapping[id]) };
}

export function mappingFromOutputs(template: CloudFormationTemplate, outputs: Readonly<Record<string, string>>): MappingResult {
  const kept = keptResources(template);
  const mapping: ResourceMapping = {};
  for (const [key, output] of Object.entries(template.Outputs ?? {})) {
    const ref = (output.Value as { Ref?: unknown } | null)?.Ref;
    const type = typeof ref === 'string' ? kept.get(ref) : undefined;
    const value = outputs[key];
    if (typeof ref !== 'string' || type === undefined || value === undefined) continue;
    mapping[ref] = { [IMPORTABLE[type].identifier]: value };
  }
  return { mapping, missing: [...kept.keys()].filter((id) => !mapping[id]) };
}

const USAGE = `Usage: node scripts/launch.mjs tsx scripts/recovery-mapping.ts --template <file> (--tagged <file> | --outputs <file>) [options]

  --template <file>   the stage's synthesized template: cdk.out/PetStore-<stage>.template.json
  --tagged <file>     aws resourcegroupstaggingapi get-resources --tag-filters Key=aws:cloudformation:stack-name,Values=PetStore-<stage> --output json
  --outputs <file>    npm run --silent outputs -- --stage <stage> --json, saved before the destroy
  --out <file>        write the mapping there (default: stdout)
  --partial           write the mapping even when some kept resources are missing from it
  --help`;

function readJson(path: string, what: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`${what} ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export function run(
  argv: readonly string[],
  io: Record<'out' | 'err', (text: string) => void> = { out: (text) => console.log(text), err: (text) => console.error(text) },
): number {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        template: { type: 'string' },
        tagged: { type: 'string' },
        outputs: { type: 'string' },
        out: { type: 'string' },
        partial: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    io.err(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  if (values.template === undefined || (values.tagged === undefined) === (values.outputs === undefined)) {
    io.err(`give --template and one of --tagged or --outputs\n\n${USAGE}`);
    return 2;
  }
  try {
    const template = readJson(values.template, 'template') as CloudFormationTemplate;
    if (typeof template.Resources !== 'object') throw new Error(`template ${values.template}: no Resources`);
    const { mapping, missing } =
      values.tagged !== undefined
        ? mappingFromTags(template, readJson(values.tagged, 'tagged resources') as TaggedResources)
        : mappingFromOutputs(template, readJson(values.outputs ?? '', 'outputs') as Record<string, string>);
    if (missing.length > 0) {
      io.err(`not found, so not imported (a redeploy creates them empty): ${missing.join(', ')}`);
      if (!values.partial) return 1;
    }
    const text = `${JSON.stringify(mapping, null, 2)}\n`;
    if (values.out !== undefined) {
      writeFileSync(values.out, text);
      io.err(`${Object.keys(mapping).length} resources mapped into ${values.out}`);
    } else io.out(text.trimEnd());
    return 0;
  } catch (error) {
    io.err(error instanceof Error ? error.message : String(error));
    return 1;
  }
}

// Run as a command, not when a test imports it (jest's CommonJS has no import.meta to compare with).
if (/recovery-mapping\.ts$/.test(process.argv[1] ?? '')) process.exitCode = run(process.argv.slice(2));
