import { notFound } from '../shared/errors';
import { httpHandler } from '../shared/http-handler';
import { NOT_FOUND_OPERATION } from '../shared/operation-specs/not-found';

export const handler = httpHandler(NOT_FOUND_OPERATION, ({ event }) => {
  throw notFound(`no route for ${event.requestContext.http.method} ${event.rawPath}`);
});
