import { notFound } from '../shared/errors';
import { httpHandler } from '../shared/http-handler';

/** The `$default` route: any method/path outside the route table. Auth still comes first. */
export const handler = httpHandler({ operationId: 'notFound', input: {} }, async ({ event }) => {
  throw notFound(`no route for ${event.requestContext.http.method} ${event.rawPath}`);
});
