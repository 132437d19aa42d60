import { Logger } from '@aws-lambda-powertools/logger';

/** Structured JSON logs; level from POWERTOOLS_LOG_LEVEL. Never log keys or Authorization headers. */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'petstore' });
