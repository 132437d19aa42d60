import type { OperationSpec } from '../operation-spec';
import { NoQueryParameters } from '../schemas/common';
import { SubmitMessageRequest } from '../schemas/message';

export const SUBMIT_MESSAGE = {
  operationId: 'submitMessage',
  input: { body: SubmitMessageRequest, query: NoQueryParameters },
  idempotent: true,
} as const satisfies OperationSpec;
