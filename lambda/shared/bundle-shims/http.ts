/**
 * Stands in for `node:http` in the Lambda bundles (esbuild alias, lib/bundling.ts). The SDK loads
 * `node:http` with a dynamic `import()` for plain-HTTP endpoints and the instance metadata service,
 * and esbuild leaves `import()` of a built-in as a real ES module import even in a CommonJS bundle:
 * building its namespace reads every export, including the lazy `WebSocket` getters that load undici
 * (and with it http2, zlib, worker_threads …, ~30 ms). `process.getBuiltinModule` returns the module
 * object without a namespace, so only what is used is read. Statically required, `node:http` costs
 * nothing extra: https loads it anyway. A build fails if bundled code imports anything not exported here.
 */
import type * as NodeHttp from 'node:http';

const http = process.getBuiltinModule('node:http') as typeof NodeHttp;

export const { Agent, STATUS_CODES, request } = http;
export default http;
