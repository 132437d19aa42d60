/**
 * Stands in for `node:http` in the Lambda bundles (esbuild alias in lib/bundling.ts). An ES module
 * import of `node:http` builds the module's namespace, which reads every export — including the
 * lazy `WebSocket`, `CloseEvent` and `MessageEvent` getters that load undici: about 30 ms of every
 * cold start (measured, bench/ part 1), for a WebSocket nobody uses. `process.getBuiltinModule`
 * returns the same module object without building a namespace, so only the exports named here are
 * read. Bundled code uses `STATUS_CODES` (@middy/util) and, for plain-HTTP endpoints only,
 * `Agent`/`request` (@smithy/node-http-handler, which loads them lazily for that reason).
 */
import type * as NodeHttp from 'node:http';

const http = process.getBuiltinModule('node:http') as typeof NodeHttp;

export const { Agent, STATUS_CODES, request } = http;
export default http;
