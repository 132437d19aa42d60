/** Reference row (`npm run bench`, cold start): Powertools Logger writing a request's line, where lambda/runtime/logger.ts writes ours. */
import { Logger } from '@aws-lambda-powertools/logger';

new Logger({ serviceName: 'petstore' }).info('request', { path: '/v1/pets/1', statusCode: 200 });
