/**
 * Upgrading a deployed stage to the sharded status index (docs/deploy-reference.md, "Upgrading the status index"), as
 * deployed: with `-c statusIndexUpgrade=true` the pets table keeps its old index beside the new one and
 * listPets reads (and may read) the old one; without it, a stage has the sharded index alone.
 */
import { PETS_LEGACY_STATUS_INDEX, PETS_LEGACY_STATUS_INDEX_ENV, PETS_STATUS_INDEX } from '#shared/tables';
import { functionNamed, grants, indexArn, resourcesOfType, statementsOf, synth, tableId } from '../support/synth';

const indexesOf = (upgrading: boolean) => {
  const { template } = synth('prod', upgrading ? { statusIndexUpgrade: 'true' } : {});
  const pets = resourcesOfType(template, 'AWS::DynamoDB::Table').get(tableId(template, 'pets')) as
    { Properties: { GlobalSecondaryIndexes: { IndexName: string }[] } } | undefined;
  return (pets?.Properties.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName);
};

test('while upgrading, the pets table has both indexes (one index created: CloudFormation adds one at a time)', () => {
  expect(indexesOf(true)).toEqual([PETS_LEGACY_STATUS_INDEX.indexName, PETS_STATUS_INDEX]);
});

test('once upgraded (the flag dropped), the old index is removed: one index deleted', () => {
  expect(indexesOf(false)).toEqual([PETS_STATUS_INDEX]);
});

test('while upgrading, listPets is told to read the old index and may Query it; no other function is', () => {
  const { template } = synth('prod', { statusIndexUpgrade: 'true' });
  const [listPetsId, listPets] = functionNamed(template, 'listPets');
  const environment = (listPets.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
  expect(environment[PETS_LEGACY_STATUS_INDEX_ENV]).toBe(PETS_LEGACY_STATUS_INDEX.indexName);
  expect(grants(statementsOf(template, listPetsId))).toContain(
    `dynamodb:Query on ${JSON.stringify(indexArn(tableId(template, 'pets'), PETS_LEGACY_STATUS_INDEX.indexName))}`,
  );
  const [, getPet] = functionNamed(template, 'getPet');
  expect((getPet.Properties.Environment as { Variables: Record<string, unknown> }).Variables[PETS_LEGACY_STATUS_INDEX_ENV]).toBeUndefined();
});

test('a stage not upgrading gives listPets no such variable', () => {
  const [, listPets] = functionNamed(synth('prod').template, 'listPets');
  expect(
    (listPets.Properties.Environment as { Variables: Record<string, unknown> }).Variables[PETS_LEGACY_STATUS_INDEX_ENV],
  ).toBeUndefined();
});
