import { availableParallelism } from 'node:os';

/**
 * Three tiers, one run (docs/testing.md has their timings):
 *   quick     unit, integration, HTTP, contract, property: in-process, against the suite's DynamoDB
 *   slow      seconds each, in process or with short-lived tools: the CDK template, the Lambda bundles, a
 *             generated client, DynamoDB faults through a proxy (its timeouts are waits, not work)
 *   processes what starts servers, engines and browsers: one file at a time (test/support/serial-runner.ts)
 * quick and slow share the parallel workers; processes runs apart from them, before or after.
 * PETSTORE_TEST_TIERS (comma-separated) keeps only those tiers: `npm run test:quick` is `PETSTORE_TEST_TIERS=quick`.
 * (jest's own --selectProjects takes every later argument as a project name, so it cannot take test paths after it.)
 * TypeScript goes through SWC (no type-checking here: `npm run typecheck` does that).
 */
const shared = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  transform: {
    '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { target: 'es2024' }, module: { type: 'commonjs' } }],
  },
  // Middy 7, content-type 3, jose 6 and cognito-local's one-time-password modules ship ESM only; let SWC turn them into CommonJS like our own code.
  transformIgnorePatterns: ['/node_modules/(?!(@middy|content-type|jose|@scure|@noble|@otplib|otplib)/)'],
  // ...and its package exports only an `import` condition, which jest's CommonJS resolver skips.
  moduleNameMapper: { '^@middy/([a-z-]+)$': '<rootDir>/node_modules/@middy/$1/index.js' },
  moduleFileExtensions: ['ts', 'js', 'json'],
};

const GENERATED_CLIENT = '<rootDir>/test/contract/generated-client.test.ts';
const PROXIED_FAULTS = ['<rootDir>/test/faults/dynamodb-unreachable.test.ts', '<rootDir>/test/faults/dynamodb-throttled.test.ts'];

export default {
  // Jest's default (cores − 1) is a single worker on a 2-core machine; most quick-tier time waits on I/O.
  maxWorkers: Math.max(2, availableParallelism() - 1),
  // Once for the whole run, whichever tiers are selected: one local DynamoDB for every test file.
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  projects: selectedTiers([
    {
      ...shared,
      displayName: 'quick',
      testMatch: ['<rootDir>/test/{unit,integration,http,contract,property}/**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', GENERATED_CLIENT],
      testTimeout: 30_000,
    },
    {
      ...shared,
      displayName: 'slow',
      testMatch: ['<rootDir>/test/infra/**/*.test.ts', GENERATED_CLIENT, ...PROXIED_FAULTS],
      testTimeout: 120_000,
    },
    {
      ...shared,
      displayName: 'processes',
      testMatch: ['<rootDir>/test/{local,faults,load,browser}/**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...PROXIED_FAULTS],
      runner: '<rootDir>/test/support/serial-runner.ts',
      testTimeout: 120_000,
    },
  ]),
};

/** @param {{ displayName: string }[]} tiers */
function selectedTiers(tiers) {
  const wanted = process.env.PETSTORE_TEST_TIERS?.split(',');
  if (!wanted) return tiers;
  const unknown = wanted.filter((name) => !tiers.some((tier) => tier.displayName === name));
  if (unknown.length > 0)
    throw new Error(`PETSTORE_TEST_TIERS: no tier ${unknown.join(', ')}; tiers: ${tiers.map((tier) => tier.displayName).join(', ')}`);
  return tiers.filter((tier) => wanted.includes(tier.displayName));
}
