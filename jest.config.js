import { availableParallelism } from 'node:os';

/**
 * Two commands, four tiers (docs/testing.md has their timings):
 *   npm test           quick  unit, integration, HTTP, contract, property, the SDK: in process, against the suite's
 *                             DynamoDB, no child process and no file that takes more than a second or two of work
 *                      slow   seconds each, in process or with short-lived tools: the CDK template, the Lambda
 *                             bundles, generated clients, the request corpus, the property tests and other generated
 *                             inputs by the thousand, concurrent and racing requests, 429 storms, the compilers and
 *                             CLIs run as a user runs them
 *   npm run test:e2e   faults     DynamoDB refused, throttled, paused at each step until the functions' deadline
 *                      processes  what starts servers, engines and browsers: one file at a time, in a lane of its
 *                                 own beside the pool of workers (test/support/lanes-runner.ts)
 * PETSTORE_TEST_TIERS (comma-separated) picks the tiers; `npm test` runs quick and slow. `npm run test:quick` is the
 * quick tier on dynalite inside jest's own process (no Java engine to start: 5 of its seconds).
 * (jest's own --selectProjects takes every later argument as a project name, so it cannot take test paths after it.)
 * TypeScript goes through SWC (no type-checking here: `npm run typecheck` does that).
 */
const shared = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  transform: {
    '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { target: 'es2024' }, module: { type: 'commonjs' } }],
  },
  // Middy 7, jose 6, cognito-local's one-time-password modules and openapi-backend's reference parser ship ESM only; let SWC
  // turn them into CommonJS like our own code.
  transformIgnorePatterns: ['/node_modules/(?!(openapi-backend/node_modules/)?(@middy|jose|@scure|@noble|@otplib|otplib|@apidevtools)/)'],
  // ...and Middy's package exports only an `import` condition, which jest's CommonJS resolver skips.
  moduleNameMapper: { '^@middy/([a-z-]+)$': '<rootDir>/node_modules/@middy/$1/index.js' },
  moduleFileExtensions: ['ts', 'js', 'json'],
  runner: '<rootDir>/test/support/lanes-runner.ts',
};

/**
 * Files of the quick tier's folders that belong to the slow tier: they start a child process (a generator's or
 * the SDK's own command line, an operator CLI, npm pack), do seconds of work in process (the request corpus,
 * the compiler on the SDK's types, thousands of generated inputs, races run round after round, hundreds of
 * concurrent requests) or wait seconds on a throttled route's bucket.
 */
const SLOW_IN_QUICK_FOLDERS = [
  'contract/generated-*.test.ts',
  'contract/request-corpus.test.ts',
  'http/account-lifecycle.http.test.ts',
  'http/concurrent-writes.http.test.ts',
  'integration/stage-check.test.ts',
  'property/*.test.ts',
  'sdk/package.test.ts',
  'sdk/storm-*.test.ts',
  'sdk/types.test.ts',
  'unit/aws-target.test.ts',
  'unit/logs-cli.test.ts',
  'unit/promotion-check.test.ts',
  'unit/text.test.ts',
];
/** The one fault that stops and restarts the database engine itself: a process, so in the lane. */
const ENGINE_RESTART = 'faults/dynamodb-restart.test.ts';
/** @param {string[]} globs */
const inTests = (globs) => globs.map((glob) => `<rootDir>/test/${glob}`);
/**
 * jest's ignore patterns are regular expressions: the same files, as paths ending in them.
 * @param {string[]} globs
 */
const asPatterns = (globs) => globs.map((glob) => `/test/${glob.replaceAll('.', '\\.').replaceAll('*', '[^/]*')}$`);

// jest reads testTimeout from the top level only (a project's own is ignored): 30 s for the quick tier, and the
// other tiers raise it to 120 s in a setup file.
const LONG_TIMEOUT = '<rootDir>/test/support/long-timeout.ts';

export default {
  testTimeout: 30_000,
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
      testMatch: ['<rootDir>/test/{unit,integration,http,contract,property,sdk}/**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...asPatterns(SLOW_IN_QUICK_FOLDERS)],
    },
    {
      ...shared,
      displayName: 'slow',
      testMatch: ['<rootDir>/test/infra/**/*.test.ts', ...inTests(SLOW_IN_QUICK_FOLDERS)],
      setupFilesAfterEnv: [LONG_TIMEOUT],
    },
    {
      ...shared,
      displayName: 'faults',
      testMatch: ['<rootDir>/test/faults/**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...asPatterns([ENGINE_RESTART])],
      setupFilesAfterEnv: [LONG_TIMEOUT],
    },
    {
      ...shared,
      displayName: 'processes',
      testMatch: ['<rootDir>/test/{local,load,browser}/**/*.test.ts', ...inTests([ENGINE_RESTART])],
      setupFilesAfterEnv: [LONG_TIMEOUT],
    },
  ]),
};

/** @param {{ displayName: string }[]} tiers */
function selectedTiers(tiers) {
  const wanted = (process.env.PETSTORE_TEST_TIERS ?? 'quick,slow').split(',');
  const unknown = wanted.filter((name) => !tiers.some((tier) => tier.displayName === name));
  if (unknown.length > 0)
    throw new Error(`PETSTORE_TEST_TIERS: no tier ${unknown.join(', ')}; tiers: ${tiers.map((tier) => tier.displayName).join(', ')}`);
  return tiers.filter((tier) => wanted.includes(tier.displayName));
}
