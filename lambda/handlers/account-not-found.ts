import { notFound } from '#contract/errors';
import { accountOf } from '#auth/require-account';
import { httpHandler } from '#http/http-handler';
import { ACCOUNT_NOT_FOUND_OPERATION } from '#contract/operations/account-not-found';

export const handler = httpHandler(ACCOUNT_NOT_FOUND_OPERATION, accountOf, ({ event }) => {
  throw notFound(`no route for ${event.requestContext.http.method} ${event.rawPath}`);
});
