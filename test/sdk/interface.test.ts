/**
 * The SDK agrees with what the service documents: for each operation, the error codes its literal unions list
 * are those the server can answer (openapi/operation-docs.ts, from which the documents are built); and its
 * version's major.minor is the interface version of the three documents (`info.version`).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { OPERATION_DOCS, errorCodesOf } from '#openapi/operation-docs';
import { ACCOUNT_OPENAPI_FILE, MESSAGES_OPENAPI_FILE, PETS_OPENAPI_FILE } from '#openapi/render';
import { OPERATION_ERROR_CODES, type OperationId } from '../../clients/typescript/src/index.ts';

const ROOT = resolve(__dirname, '../..');
const readJson = (file: string): unknown => JSON.parse(readFileSync(resolve(ROOT, file), 'utf8'));

const sdkOperations = Object.keys(OPERATION_ERROR_CODES) as OperationId[];

test('the SDK knows every operation the server has, by the same operationIds', () => {
  expect([...sdkOperations].sort()).toEqual(Object.keys(OPERATION_DOCS).sort());
});

test.each(sdkOperations)('%s: the error codes the SDK narrows to are those the server documents', (operation) => {
  const documented = errorCodesOf(OPERATION_DOCS[operation]);
  expect([...OPERATION_ERROR_CODES[operation]].sort()).toEqual([...documented].sort());
});

test("the package's major.minor is the interface version of every document", () => {
  const { version } = readJson('clients/typescript/package.json') as { version: string };
  const majorMinor = (semver: string) => semver.split('.').slice(0, 2).join('.');
  for (const file of [PETS_OPENAPI_FILE, MESSAGES_OPENAPI_FILE, ACCOUNT_OPENAPI_FILE]) {
    const document = readJson(file) as { info: { version: string } };
    expect({ file, version: majorMinor(version) }).toEqual({ file, version: majorMinor(document.info.version) });
  }
});
