/**
 * The reference row of the cold-start table: a handler written the straightforward way — classic
 * `zod`, Middy with its JSON body parser, and the DynamoDB document client on the SDK's default
 * credential chain — bundled with the same esbuild options as ours minus our cold-start choices (an
 * ES module instead of CommonJS, no SDK alias), so the table shows what the optimisations of lib/ and
 * lambda/ buy. Never deployed; bench only.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { z } from 'zod';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const PathParameters = z.object({ petId: z.coerce.number().int().positive() });

export const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>()
  .use(httpHeaderNormalizer())
  .use(httpJsonBodyParser({ disableContentTypeError: true }))
  .handler(async (event) => {
    const parsed = PathParameters.safeParse(event.pathParameters ?? {});
    if (!parsed.success) return { statusCode: 400, body: JSON.stringify({ message: parsed.error.message }) };
    const { Item } = await db.send(new GetCommand({ TableName: process.env.PETS_TABLE_NAME, Key: { id: parsed.data.petId } }));
    return Item ? { statusCode: 200, body: JSON.stringify(Item) } : { statusCode: 404, body: '{"message":"not found"}' };
  });
