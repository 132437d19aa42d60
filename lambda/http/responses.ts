import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

export type HttpResponse = APIGatewayProxyStructuredResultV2 & {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
};

/**
 * Every answer of the API is JSON and private to the caller: `no-store` keeps shared caches from
 * keeping one account's data for another.
 */
export function jsonResponse(statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResponse {
  return {
    statusCode,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
    body: JSON.stringify(body),
  };
}

/** 204: done, nothing to show (still private to the caller). */
export function noContentResponse(): HttpResponse {
  return { statusCode: 204, headers: { 'cache-control': 'no-store' }, body: '' };
}
