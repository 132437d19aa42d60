import { availableParallelism } from 'node:os';

/** Jest runs TypeScript through SWC (no type-checking here: `npm run typecheck` does that). */
export default {
  // Jest's default (cores − 1) is a single worker on a 2-core machine; most test time waits on I/O.
  maxWorkers: Math.max(2, availableParallelism() - 1),
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { target: 'es2024' }, module: { type: 'commonjs' } }],
  },
  // Middy 7, content-type 3, jose 6 and cognito-local's one-time-password modules ship ESM only; let SWC turn them into CommonJS like our own code.
  transformIgnorePatterns: ['/node_modules/(?!(@middy|content-type|jose|@scure|@noble|@otplib|otplib)/)'],
  // ...and its package exports only an `import` condition, which jest's CommonJS resolver skips.
  moduleNameMapper: { '^@middy/([a-z-]+)$': '<rootDir>/node_modules/@middy/$1/index.js' },
  moduleFileExtensions: ['ts', 'js', 'json'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 30_000,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
