/**
 * Stands in for `node:zlib` in the Lambda bundles (esbuild alias, lib/bundling.ts). The SDK's
 * checksum code reads `zlib.crc32` when its module loads, which loads zlib (~2 ms of every cold
 * start, bench/ part 1) — yet DynamoDB calls never compute a CRC32 (no event streams, no flexible
 * checksums). zlib is now loaded on the first call, which never comes. A build fails if bundled code
 * imports anything not exported here.
 */
import type * as Zlib from 'node:zlib';

const zlib = (): typeof Zlib => process.getBuiltinModule('node:zlib');

export const crc32: typeof Zlib.crc32 = (data, value) => zlib().crc32(data, value);
