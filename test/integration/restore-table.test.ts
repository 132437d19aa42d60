/**
 * `npm run restore-table` (docs/runbooks.md, "One table damaged") against a stand-in for CloudFormation, whose stack
 * outputs name a local DynamoDB table, and a second local table standing in for the point-in-time restore.
 */
import { createServer } from 'node:http';
import { DeleteCommand, GetCommand, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { run } from '../../scripts/restore-table';
import { freshTables, testDocumentClient } from '../support/local-dynamodb';
import { listenOnLoopback, type Listening } from '../support/loopback-server';

const db = testDocumentClient();
let stage: string;
let restored: string;
let cloudFormation: Listening;
const asked: string[] = [];

beforeAll(async () => {
  [stage, restored] = await Promise.all([freshTables(), freshTables()]).then((sets) => sets.map((set) => set.tableNames.pets));
  cloudFormation = await listenOnLoopback(
    createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const form = new URLSearchParams(body);
        asked.push(`${form.get('Action')} ${form.get('StackName')}`);
        response.writeHead(200, { 'content-type': 'text/xml' });
        response.end(
          `<DescribeStacksResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><DescribeStacksResult><Stacks><member><StackName>PetStore-staging</StackName><StackStatus>UPDATE_COMPLETE</StackStatus><CreationTime>2025-05-01T00:00:00Z</CreationTime><Outputs><member><OutputKey>PetsTableName</OutputKey><OutputValue>${stage}</OutputValue></member></Outputs></member></Stacks></DescribeStacksResult><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></DescribeStacksResponse>`,
        );
      });
    }),
  );
  Object.assign(process.env, { AWS_ENDPOINT_URL_CLOUDFORMATION: cloudFormation.origin, AWS_REGION: 'eu-west-1' });
  for (const item of [pet(1, 'Rex'), pet(2, 'Tom'), pet(3, 'Kit')]) await db.send(new PutCommand({ TableName: restored, Item: item }));
}, 60_000);

const pet = (id: number, name: string) => ({ id, name, categoryId: 1, status: 'available', statusShard: `available#${id % 12}` });

// The restore holds pets 1 to 3; since then pet 2 was deleted, pet 3 damaged and pet 4 created.
beforeEach(async () => {
  await db.send(new DeleteCommand({ TableName: stage, Key: { id: 2 } }));
  for (const item of [pet(1, 'Rex'), pet(3, 'damaged'), pet(4, 'New')]) await db.send(new PutCommand({ TableName: stage, Item: item }));
});

afterAll(async () => {
  await cloudFormation.close();
  db.destroy();
});

const names = async (): Promise<Record<number, string>> =>
  Object.fromEntries(
    ((await db.send(new ScanCommand({ TableName: stage }))).Items ?? []).map((item) => [item.id as number, item.name as string]),
  );

it('refuses an unknown table, and the stage table itself as the source', async () => {
  expect(await run(['--stage', 'staging', '--table', 'idempotency', '--from', restored])).toBe(2);
  await expect(run(['--stage', 'staging', '--table', 'pets', '--from', stage])).rejects.toThrow("--from names the stage's own pets table");
});

it('brings deleted items back and leaves every item the table holds as it is', async () => {
  expect(await run(['--stage', 'staging', '--table', 'pets', '--from', restored])).toBe(0);
  expect(asked).toContain('DescribeStacks PetStore-staging');
  expect(await names()).toEqual({ 1: 'Rex', 2: 'Tom', 3: 'damaged', 4: 'New' });
});

it('--overwrite also repairs the items damaged in place, and keeps those created since', async () => {
  expect(await run(['--stage', 'staging', '--table', 'pets', '--from', restored, '--overwrite'])).toBe(0);
  expect(await names()).toEqual({ 1: 'Rex', 2: 'Tom', 3: 'Kit', 4: 'New' });
  expect((await db.send(new GetCommand({ TableName: stage, Key: { id: 3 } }))).Item?.statusShard).toBe('available#3');
});
