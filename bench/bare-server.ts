/**
 * Part 3's floor: a bare `node:http` server whose only work is the operation's DynamoDB call (the pet
 * repository's, with the handlers' own client), answered as JSON — no gateway emulation, no
 * authorizer, no Middy, no validation. What it reaches against the direct SDK is what the extra HTTP
 * hop alone costs on this machine; the distance from it to the real local API is what our layers
 * cost. Prints its origin.
 */
import { createServer } from 'node:http';
import { tableName } from '../lambda/shared/config';
import { documentClient } from '../lambda/shared/dynamodb-client';
import { DynamoPetRepository } from '../lambda/shared/repositories/pet-repository';

const pets = new DynamoPetRepository(documentClient(), tableName('pets'));
const PET_PATH = /^\/v1\/pets\/(\d+)$/;

const server = createServer((request, response) => {
  const id = PET_PATH.exec(request.url ?? '')?.[1];
  if (request.method !== 'GET' || id === undefined) {
    response.writeHead(404).end();
    return;
  }
  pets.get(Number(id)).then(
    (pet) => {
      const body = JSON.stringify(pet ?? null);
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    },
    () => response.writeHead(503).end(),
  );
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.stdout.write(`${JSON.stringify({ origin: `http://127.0.0.1:${address.port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
