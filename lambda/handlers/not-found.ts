import { notFound } from '#contract/errors';
import { httpHandler } from '#http/http-handler';
import { NOT_FOUND_OPERATION } from '#contract/operations/not-found';

export const handler = httpHandler(NOT_FOUND_OPERATION, ({ event }) => {
  throw notFound(`no route for ${event.requestContext.http.method} ${event.rawPath}`);
});
