/** Reference row (`npm run bench`, cold start): Powertools Tracer (and so the X-Ray SDK) set up, where lambda/runtime/tracing.ts loads nothing. */
import { Tracer } from '@aws-lambda-powertools/tracer';

new Tracer({ serviceName: 'petstore' });
