import { randomBytes } from 'node:crypto';
import { createDocumentClient } from '#data/dynamodb-client';
import { localFunctionEnvironment } from '#local/dev/function-environment';
import { prepareTables } from '#local/engine/local-store';
import type { TableNames } from '#local/engine/tables';

export function testEndpoint(): string {
  const endpoint = process.env.PETSTORE_TEST_DYNAMODB_ENDPOINT;
  if (!endpoint) throw new Error('the jest global setup did not start a local DynamoDB');
  return endpoint;
}

/**
 * A fresh set of tables for one test file, on the suite's DynamoDB, and the process environment a
 * handler needs to use them (set before any handler module is imported).
 */
export async function freshTables(endpoint: string = testEndpoint()): Promise<{ endpoint: string; tableNames: TableNames }> {
  const prefix = `test-${process.env.JEST_WORKER_ID ?? '0'}-${randomBytes(4).toString('hex')}-`;
  const tableNames = await prepareTables(endpoint, prefix);
  Object.assign(process.env, localFunctionEnvironment({ endpoint, tableNames, logLevel: 'SILENT' }));
  return { endpoint, tableNames };
}

export const testDocumentClient = (endpoint: string = testEndpoint()): ReturnType<typeof createDocumentClient> =>
  createDocumentClient(endpoint);
