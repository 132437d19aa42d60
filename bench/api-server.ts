/**
 * The local API as its own process for the load part: the same gateway emulation and handlers as
 * `npm start` (local/server.ts, local/functions.ts), on the DynamoDB whose environment it is given,
 * without the per-request access log (console output would be measured too). Prints its origin.
 */
import { loadFunctions } from '../local/functions';
import { startLocalApi } from '../local/server';

const api = await startLocalApi({ functions: await loadFunctions(), port: 0 });
process.stdout.write(`${JSON.stringify({ origin: api.origin })}\n`);
process.on('SIGTERM', () => void api.close().then(() => process.exit(0)));
