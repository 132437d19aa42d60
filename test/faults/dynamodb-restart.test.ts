/**
 * The database itself goes away mid-run and comes back: its process is stopped (requests get a clean
 * 503) and started again on the same data, after which the API works again without a restart of its
 * own, and every acknowledged write is there — nothing else.
 */
import { freePort, startLocalDynamoDb, type LocalDynamoDb } from '#local/engine/dynamodb-engine';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectError, startTestApi, type TestApi } from '../support/test-api';
import { mixedRound, type Round } from '../support/traffic';

const dataDir = mkdtempSync(join(tmpdir(), 'petstore-restart-'));
const engineName = (process.env.PETSTORE_TEST_DYNAMODB_ENGINE ?? 'dynalite') as 'dynamodb-local' | 'dynalite';
let port: number;
let engine: LocalDynamoDb;
let api: TestApi;
let knownPetId: number;
const rounds: Round[] = [];

beforeAll(async () => {
  port = await freePort();
  engine = await startLocalDynamoDb({ engine: engineName, port, dataDir });
  // The functions' own DynamoDB timeouts: a stopped engine refuses connections at once.
  api = await startTestApi({ endpoint: engine.endpoint });
  knownPetId = ((await api.call('POST', '/v1/pets', { json: { name: 'known', categoryId: 1 } })).json as { id: number }).id;
}, 120_000);
afterAll(async () => {
  await api.close();
  await engine.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test(`requests while the database (${engineName}) is stopped answer 503; once restarted it works again, with every acknowledged write stored and nothing else`, async () => {
  rounds.push(await mixedRound(api, knownPetId));
  expect(rounds[0]?.answers.every((answer) => answer.status < 300)).toBe(true);

  await engine.stop();
  const down = await mixedRound(api, knownPetId);
  rounds.push(down);
  for (const answer of down.answers) expectError(answer, 503, 'service_unavailable');

  engine = await startLocalDynamoDb({ engine: engineName, port, dataDir });
  const back = await mixedRound(api, knownPetId);
  rounds.push(back);
  expect(back.answers.map((answer) => answer.status)).toEqual([201, 201, 201, 202, 200, 200, 200, 200]);

  const storedPets = (await api.scan('pets')).map((item) => item.name).filter((name) => name !== 'known');
  expect(storedPets.sort()).toEqual(rounds.flatMap((round) => round.acknowledgedPets).sort());
  expect((await api.scan('messages')).map((item) => item.id).sort()).toEqual(rounds.flatMap((round) => round.acknowledgedMessages).sort());
  expect(rounds.flatMap((round) => round.acknowledgedPets)).toHaveLength(6);
}, 120_000);
