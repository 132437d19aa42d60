import { notFound } from '#contract/errors';
import { callerOf } from '#auth/require-caller';
import { httpHandler } from '#http/http-handler';
import { NOT_FOUND_OPERATION } from '#contract/operations/not-found';

export const handler = httpHandler(NOT_FOUND_OPERATION, callerOf, ({ event }) => {
  throw notFound(`no route for ${event.requestContext.http.method} ${event.rawPath}`);
});
