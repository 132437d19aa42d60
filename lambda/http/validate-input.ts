import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as z from 'zod/mini';
import { invalidRequest } from '#contract/errors';
import type { InputSchemas } from '#contract/operation-spec';
import { AnyParameters } from '#contract/schemas/no-input';
import { describeIssues, type InputLocation } from './validation-messages';

/** What the operation's schemas made of the request: its path, query and (parsed JSON) body. */
export interface ValidInput<S extends InputSchemas> {
  readonly path: z.output<S['path']>;
  readonly query: z.output<S['query']>;
  readonly body: z.output<S['body']>;
}

function parse<T extends z.core.$ZodType>(schema: T, value: unknown, location: InputLocation): z.output<T> {
  const result = z.safeParse(schema, value);
  if (!result.success) throw invalidRequest(describeIssues(result.error.issues, location, value));
  return result.data;
}

/** API Gateway joins a repeated parameter's values with commas (`limit=1,2`): name the repetition, not that value. */
function refuseRepeatedQuery(rawQueryString: string | undefined): void {
  const names = [...new URLSearchParams(rawQueryString).keys()];
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated !== undefined) throw invalidRequest(`query parameter '${repeated}' is given more than once; send it once`);
}

/**
 * Validates path, query and body with the operation's zod schemas; a mistake is a 400 naming the
 * field. The body is what Middy's JSON parser left in `event.body` (a parsed value, not text).
 */
export function validInput<S extends InputSchemas>(schemas: S, event: APIGatewayProxyEventV2): ValidInput<S> {
  // A route that takes any query (`$default`'s 404) has no parameter to repeat.
  if (schemas.query !== AnyParameters) refuseRepeatedQuery(event.rawQueryString);
  // Type arguments spelled out: inferred from `schemas.path`, TypeScript would widen to the constraint.
  return {
    path: parse<S['path']>(schemas.path, event.pathParameters ?? {}, 'path'),
    query: parse<S['query']>(schemas.query, event.queryStringParameters ?? {}, 'query'),
    body: parse<S['body']>(schemas.body, event.body, 'body'),
  };
}
