import { notFound } from '../shared/errors';
import { httpHandler } from '../shared/http-handler';
import { ACCOUNT_NOT_FOUND_OPERATION } from '../shared/operation-specs/account-not-found';

export const handler = httpHandler(ACCOUNT_NOT_FOUND_OPERATION, ({ event }) => {
  throw notFound(`no route for ${event.requestContext.http.method} ${event.rawPath}`);
});
