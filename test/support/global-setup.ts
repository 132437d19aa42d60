/**
 * One local DynamoDB for the whole suite (each test file then creates its own uniquely prefixed
 * tables). Workers inherit the endpoint through the environment. The global teardown stops it; if jest
 * itself dies first (a kill, a crash), DynamoDB Local stops by itself when its parent goes
 * (local/engine/java/LoopbackDynamoDbLocal.java), so no run leaves a Java process behind.
 */
import { startLocalDynamoDb, type LocalDynamoDb } from '#local/engine/dynamodb-engine';

declare global {
  var petstoreTestDynamoDb: LocalDynamoDb | undefined;
}

export default async function globalSetup(): Promise<void> {
  const db = await startLocalDynamoDb();
  globalThis.petstoreTestDynamoDb = db;
  process.env.PETSTORE_TEST_DYNAMODB_ENDPOINT = db.endpoint;
  process.env.PETSTORE_TEST_DYNAMODB_ENGINE = db.engine;
  console.log(`\nLocal DynamoDB for tests: ${db.engine} at ${db.endpoint}`);
}
