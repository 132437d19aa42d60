/** Reference row (`npm run bench`, cold start): our own logger, metrics and tracer doing what the Powertools rows do. */
import { info } from '#runtime/logger';
import { requestMetrics } from '#runtime/metrics';
import { invocationTrace } from '#runtime/tracing';

invocationTrace();
const metrics = requestMetrics({ operation: 'getPet', outcome: 'success', code: undefined, latencyMs: 1, coldStart: true, counts: [] });
info('request', { path: '/v1/pets/1', statusCode: 200, ...metrics });
