import { DEPLOYED_FUNCTIONS } from '#shared/deployed-functions';
import { STAGES } from '#shared/stages';
import { STATUS_SHARD_HISTORY, STATUS_SHARDS_ENV, type StatusShardLayout } from '#shared/status-shards';
import { tablesUsedBy } from '#shared/table-access';
import { functionNamed, synth } from '../support/synth';

/** The layout a function of the stage's template is told. */
const layoutOf = (stage: (typeof STAGES)[number], name: (typeof DEPLOYED_FUNCTIONS)[number]['name']): StatusShardLayout => {
  const { Variables } = functionNamed(synth(stage).template, name)[1].Properties.Environment as { Variables: Record<string, unknown> };
  return JSON.parse(String(Variables[STATUS_SHARDS_ENV])) as StatusShardLayout;
};

describe.each(STAGES)('%s stage: the status index layout', (stage) => {
  it.each(DEPLOYED_FUNCTIONS.filter(({ name }) => tablesUsedBy(name).includes('pets')).map(({ name }) => name))(
    "%s is told the stage's status shard history, which ends in what its createPet throttle needs",
    (name) => {
      expect(layoutOf(stage, name)).toEqual(STATUS_SHARD_HISTORY[stage]);
    },
  );

  it('prod writes (and a filtered page reads) 2 shards, staging and dev 1', () => {
    expect(layoutOf(stage, 'listPets').at(-1)).toEqual({
      shards: { dev: 1, staging: 1, prod: 2 }[stage],
    });
  });
});
