import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as z from 'zod/mini';
import { invalidRequest } from '../errors';
import type { ApiContext, InputSchemas } from '../http-handler';
import { describeIssues, type InputLocation } from '../validation-messages';

function parse(schema: z.core.$ZodType | undefined, value: unknown, location: InputLocation): unknown {
  if (!schema) return undefined;
  const result = z.safeParse(schema, value);
  if (!result.success) throw invalidRequest(describeIssues(result.error.issues, location, value));
  return result.data;
}

/** Validates path, query and body with the operation's zod schemas; handlers receive parsed values. */
export const validateInput = (schemas: InputSchemas): MiddlewareObj<APIGatewayProxyEventV2, unknown, Error, ApiContext> => ({
  before: ({ event, context }) => {
    context.input = {
      path: parse(schemas.path, event.pathParameters ?? {}, 'path'),
      query: parse(schemas.query, event.queryStringParameters ?? {}, 'query'),
      body: parse(schemas.body, event.body, 'body'),
    };
  },
});
