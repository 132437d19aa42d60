/**
 * The tests' side of the contract check (openapi/contract-check.ts): every answer a test receives must
 * honour the documents, and each test file leaves a tally of the documented answers it exercised.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { contractViolations, type ContractAnswer, type ContractRequest } from '#openapi/contract-check';
import { PROJECT_ROOT } from '../infra/support/project-root';

/** Tally of validated answers, per operation and status, for the coverage note of a test file. */
export const validatedAnswers = new Map<string, number>();

/** Throws (failing the test that made the call) when the answer breaks the contract. */
export function assertHonoursContract(request: ContractRequest, answer: ContractAnswer): void {
  const { operationId, problems } = contractViolations(request, answer);
  if (problems.length > 0) {
    throw new Error(
      `${request.method} ${request.url} answered ${answer.status}, which the OpenAPI documents do not allow (${operationId}):\n` +
        problems.map((problem) => `  - ${problem}`).join('\n') +
        `\n  body: ${answer.text.slice(0, 300)}`,
    );
  }
  const key = `${operationId} ${answer.status}`;
  validatedAnswers.set(key, (validatedAnswers.get(key) ?? 0) + 1);
}

/**
 * Writes this test file's tally to test-artifacts/contract/<file>.json: which documented answers the
 * HTTP tests actually exercised (statuses never seen there are worth a test).
 */
export function writeContractCoverage(): void {
  const testPath = expect.getState().testPath;
  if (!testPath || validatedAnswers.size === 0) return;
  const directory = join(PROJECT_ROOT, 'test-artifacts/contract');
  mkdirSync(directory, { recursive: true });
  const tally = Object.fromEntries([...validatedAnswers].sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(join(directory, `${basename(testPath)}.json`), `${JSON.stringify(tally, null, 2)}\n`);
}
