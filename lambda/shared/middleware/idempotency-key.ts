import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { invalidRequest } from '../errors';
import type { ApiContext } from '../http-handler';
import { claimFor } from '../idempotency';
import { IDEMPOTENCY_KEY_PATTERN, type OperationSpec } from '../operation-spec';

/**
 * `Idempotency-Key` (optional, creating operations): checks the header and hands the operation its
 * claim (lambda/shared/idempotency.ts); the write itself happens once in the repository
 * (repositories/write-once.ts). Runs after validation, so a refused request never uses its key.
 */
export const idempotencyKey = (operationId: OperationSpec['operationId']): MiddlewareObj<APIGatewayProxyEventV2, unknown, Error, ApiContext> => ({
  before: ({ event, context }) => {
    const key = event.headers['idempotency-key'];
    if (key === undefined) return;
    if (!IDEMPOTENCY_KEY_PATTERN.test(key)) throw invalidRequest("header 'Idempotency-Key' must be one value of 1 to 255 visible ASCII characters without commas (sent once)");
    const { caller, input } = context;
    if (!caller || !input) throw new Error('idempotencyKey runs after requireCaller and validateInput');
    context.idempotency = claimFor(operationId, caller.accountId, key, input.body);
  },
});
