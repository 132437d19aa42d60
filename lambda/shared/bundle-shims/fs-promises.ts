/**
 * Stands in for `node:fs/promises` in the Lambda bundles (esbuild alias, lib/bundling.ts). Only the
 * SDK's shared-config loader uses it, to read ~/.aws/config and ~/.aws/credentials; the Lambda client
 * never asks for them (lambda/shared/dynamodb-client.ts fixes what they would hold), so loading
 * `fs/promises` when the bundle loads (~2.5 ms, bench/ part 1) bought nothing. It is loaded on the
 * first call instead. A build fails if bundled code imports anything not exported here.
 */
import type * as FsPromises from 'node:fs/promises';

const fs = (): typeof FsPromises => process.getBuiltinModule('node:fs/promises');

export const readFile = ((...args: Parameters<typeof FsPromises.readFile>) => fs().readFile(...args)) as typeof FsPromises.readFile;
