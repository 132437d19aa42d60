import type { MiddlewareObj } from '@middy/core';
import type { HttpResponse } from '../responses';

/** Adds fixed headers to the response, whether the operation succeeded or failed. */
export const addHeaders = (headers: Readonly<Record<string, string>>): MiddlewareObj<unknown, HttpResponse> => {
  const apply = (response: HttpResponse | null | undefined): void => {
    if (response) response.headers = { ...response.headers, ...headers };
  };
  return {
    after: ({ response }) => apply(response),
    // mapErrors (registered after this one) runs first on errors, so the response exists here.
    onError: ({ response }) => apply(response),
  };
};
