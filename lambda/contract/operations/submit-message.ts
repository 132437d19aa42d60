import type { OperationSpec } from '../operation-spec';
import { NoPathParameters, NoQueryParameters } from '../schemas/common';
import { SubmitMessageRequest } from '../schemas/message';

export const SUBMIT_MESSAGE = {
  operationId: 'submitMessage',
  input: { path: NoPathParameters, query: NoQueryParameters, body: SubmitMessageRequest },
  idempotent: true,
} as const satisfies OperationSpec;
