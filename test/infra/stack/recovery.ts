/**
 * A destroyed staging or prod stage comes back with its data and users through `cdk import` (docs/deploy-reference.md,
 * Recovery): what the template keeps on delete, and the resource mapping scripts/recovery-mapping.ts writes for it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  keptResources,
  mappingFromOutputs,
  mappingFromTags,
  run,
  type CloudFormationTemplate,
  type TaggedResources,
} from '../../../scripts/recovery-mapping';
import { resourcesOfType, synth, tableId, type TableName } from '../support/synth';

const TABLES: readonly TableName[] = ['pets', 'messages', 'apiKeys', 'accounts', 'idempotency'];
const templateJson = (stage: 'dev' | 'staging' | 'prod') => synth(stage).template.toJSON() as CloudFormationTemplate;

describe.each(['staging', 'prod'] as const)('%s stage', (stage) => {
  const { template } = synth(stage);
  const poolId = [...resourcesOfType(template, 'AWS::Cognito::UserPool').keys()][0] ?? '';

  it('keeps its five tables and its user pool when the stack is deleted or replaces them', () => {
    const kept = keptResources(templateJson(stage));
    expect([...kept.keys()].sort()).toEqual([...TABLES.map((table) => tableId(template, table)), poolId].sort());
    for (const id of kept.keys()) {
      const resource = (template.toJSON() as { Resources: Record<string, { DeletionPolicy?: string; UpdateReplacePolicy?: string }> })
        .Resources[id];
      expect(resource).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    }
  });

  it('leaves the physical names to CloudFormation, so cdk import takes them from the mapping and a rename never replaces a table', () => {
    for (const table of TABLES)
      expect(resourcesOfType(template, 'AWS::DynamoDB::Table').get(tableId(template, table))?.Properties.TableName).toBeUndefined();
    expect(resourcesOfType(template, 'AWS::Cognito::UserPool').get(poolId)?.Properties.UserPoolName).toBeUndefined();
  });

  it('keeps point-in-time recovery on every table, the fallback when a table itself was deleted', () => {
    for (const table of TABLES) {
      expect(
        resourcesOfType(template, 'AWS::DynamoDB::Table').get(tableId(template, table))?.Properties.PointInTimeRecoverySpecification,
      ).toEqual({
        PointInTimeRecoveryEnabled: true,
      });
    }
  });

  it('maps every kept resource from the tags CloudFormation left on them', () => {
    const json = templateJson(stage);
    const arnOf = (id: string) =>
      id === poolId
        ? `arn:aws:cognito-idp:eu-west-1:123456789012:userpool/eu-west-1_Abc${id.length}`
        : `arn:aws:dynamodb:eu-west-1:123456789012:table/${stage}-${id}-XYZ`;
    const tagged: TaggedResources = {
      ResourceTagMappingList: [
        ...[...keptResources(json).keys()].map((id) => ({
          ResourceARN: arnOf(id),
          Tags: [
            { Key: 'aws:cloudformation:logical-id', Value: id },
            { Key: 'aws:cloudformation:stack-name', Value: `PetStore-${stage}` },
          ],
        })),
        // Another resource of the old stack that is not kept data: not in the mapping.
        {
          ResourceARN: 'arn:aws:logs:eu-west-1:123456789012:log-group:x',
          Tags: [{ Key: 'aws:cloudformation:logical-id', Value: 'SomeLogs' }],
        },
      ],
    };
    const { mapping, missing } = mappingFromTags(json, tagged);
    expect(missing).toEqual([]);
    expect(mapping[poolId]).toEqual({ UserPoolId: `eu-west-1_Abc${poolId.length}` });
    for (const table of TABLES) {
      const id = tableId(template, table);
      expect(mapping[id]).toEqual({ TableName: `${stage}-${id}-XYZ` });
    }
    expect(Object.keys(mapping)).toHaveLength(6);
  });

  it('maps the four tables with outputs and the user pool from the outputs saved before the destroy; the idempotency table is missing', () => {
    const outputs = {
      PetsTableName: 'p',
      MessagesTableName: 'm',
      ApiKeysTableName: 'k',
      AccountsTableName: 'a',
      UserPoolId: 'eu-west-1_Pool',
      PetsBaseUrl: 'https://x/v1',
    };
    const { mapping, missing } = mappingFromOutputs(templateJson(stage), outputs);
    expect(mapping).toEqual({
      [tableId(template, 'pets')]: { TableName: 'p' },
      [tableId(template, 'messages')]: { TableName: 'm' },
      [tableId(template, 'apiKeys')]: { TableName: 'k' },
      [tableId(template, 'accounts')]: { TableName: 'a' },
      [poolId]: { UserPoolId: 'eu-west-1_Pool' },
    });
    expect(missing).toEqual([tableId(template, 'idempotency')]);
  });
});

it('dev keeps nothing: a destroy removes its data, and there is nothing to import', () => {
  expect(keptResources(templateJson('dev')).size).toBe(0);
});

describe('scripts/recovery-mapping.ts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'recovery-mapping-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const templateFile = join(dir, 'template.json');
  writeFileSync(templateFile, JSON.stringify(templateJson('prod')));
  const kept = [...keptResources(templateJson('prod')).keys()];
  const tags = (ids: readonly string[]) => ({
    ResourceTagMappingList: ids.map((id) => ({
      ResourceARN: id.startsWith('IdentityUserPool')
        ? 'arn:aws:cognito-idp:eu-west-1:1:userpool/eu-west-1_P'
        : `arn:aws:dynamodb:eu-west-1:1:table/t-${id}`,
      Tags: [{ Key: 'aws:cloudformation:logical-id', Value: id }],
    })),
  });
  const cli = (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = run(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  it('prints the mapping cdk import --resource-mapping reads', () => {
    const taggedFile = join(dir, 'tagged.json');
    writeFileSync(taggedFile, JSON.stringify(tags(kept)));
    const { code, out } = cli('--template', templateFile, '--tagged', taggedFile);
    expect(code).toBe(0);
    const mapping = JSON.parse(out) as Record<string, Record<string, string>>;
    expect(Object.keys(mapping).sort()).toEqual([...kept].sort());
  });

  it('writes it to --out', () => {
    const taggedFile = join(dir, 'tagged-out.json');
    const outFile = join(dir, 'mapping.json');
    writeFileSync(taggedFile, JSON.stringify(tags(kept)));
    const { code, err } = cli('--template', templateFile, '--tagged', taggedFile, '--out', outFile);
    expect(code).toBe(0);
    expect(err).toContain(`${kept.length} resources mapped into ${outFile}`);
    expect(Object.keys(JSON.parse(readFileSync(outFile, 'utf8')) as object)).toHaveLength(kept.length);
  });

  it('names the kept resources it could not find and writes nothing, unless --partial', () => {
    const taggedFile = join(dir, 'tagged-some.json');
    writeFileSync(taggedFile, JSON.stringify(tags(kept.slice(1))));
    const refused = cli('--template', templateFile, '--tagged', taggedFile);
    expect(refused).toMatchObject({ code: 1, out: '' });
    expect(refused.err).toContain(`not found, so not imported (a redeploy creates them empty): ${kept[0]}`);
    const partial = cli('--template', templateFile, '--tagged', taggedFile, '--partial');
    expect(partial.code).toBe(0);
    expect(Object.keys(JSON.parse(partial.out) as object)).toHaveLength(kept.length - 1);
  });

  it.each([
    [[], 'give --template and one of --tagged or --outputs'],
    [['--template', 't.json'], 'give --template and one of --tagged or --outputs'],
    [['--template', 't.json', '--tagged', 'a', '--outputs', 'b'], 'give --template and one of --tagged or --outputs'],
    [['--stage', 'prod'], "Unknown option '--stage'"],
  ])('refuses %j with its usage (exit 2)', (argv, message) => {
    const { code, err } = cli(...argv);
    expect(code).toBe(2);
    expect(err).toContain(message);
    expect(err).toContain('Usage:');
  });

  it('says which file it could not read', () => {
    const { code, err } = cli('--template', join(dir, 'nope.json'), '--outputs', join(dir, 'nope.json'));
    expect(code).toBe(1);
    expect(err).toContain(`template ${join(dir, 'nope.json')}`);
  });
});
