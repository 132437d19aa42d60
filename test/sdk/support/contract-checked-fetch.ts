/**
 * A `fetch` for the SDK under test that holds every answer it receives to the OpenAPI documents, as the HTTP
 * tests' `call` does. Problems are collected rather than thrown: thrown inside `fetch`, the SDK would take them
 * for network failures and retry. `expectNoContractProblems()` (in `afterEach`) fails the test that caused one.
 */
import { contractViolations, readAnswer } from '#openapi/contract-check';
import type { FetchFunction } from '../../../clients/typescript/src/index.ts';

const problems: string[] = [];

export const contractCheckedFetch: FetchFunction = async (request) => {
  const response = await fetch(request);
  const answer = await readAnswer(response.clone());
  const { operationId, problems: found } = contractViolations({ method: request.method, url: request.url }, answer);
  if (found.length > 0)
    problems.push(
      `${request.method} ${request.url} answered ${answer.status} (${operationId}): ${found.join('; ')}; body ${answer.text.slice(0, 200)}`,
    );
  return response;
};

export function expectNoContractProblems(): void {
  const seen = problems.splice(0);
  expect(seen).toEqual([]);
}
