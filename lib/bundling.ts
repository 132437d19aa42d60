/**
 * How every function is bundled, as plain esbuild options: the CDK stack maps them onto
 * NodejsFunction's bundling props (lib/petstore-function.ts), and benchmarks or tests can pass them
 * straight to `esbuild.build` (adding only entryPoints and outfile) to get the bundle Lambda runs.
 * No aws-cdk-lib import here on purpose.
 */
import type { BuildOptions } from 'esbuild';

/** Lambda loads a CommonJS bundle from `index.js` (no package.json `type` travels with the bundle). */
export const LAMBDA_BUNDLE_FILE = 'index.js';

export const LAMBDA_BUNDLE_OPTIONS = {
  bundle: true,
  platform: 'node',
  // CommonJS, not ESM: a bundled ES module imports Node built-ins (`node:crypto`, `node:fs`,
  // `node:https`, …) as ES modules, and Node builds each one's namespace by reading every export —
  // lazy getters included (`fs.ReadStream`, `crypto.webcrypto`, `http.WebSocket`, …), loading code
  // nobody calls. `require()` reads only what is used (`npm run bench`, part 1).
  format: 'cjs',
  // The Lambda runtime (nodejs24.x): no down-levelling of syntax Node 24 runs natively.
  target: 'node24',
  minify: true,
  // The map ships next to the bundle for lambda/runtime/source-mapped-stack.ts, which reads it only
  // when an error is logged; Node's --enable-source-maps would parse it at every cold start.
  // Mappings only, not the sources: smaller, nothing extra shipped.
  sourcemap: true,
  sourcesContent: false,
  treeShaking: true,
  // Prefer ES module builds so tree-shaking can drop unused AWS SDK and Powertools code.
  mainFields: ['module', 'main'],
  // Bundle the AWS SDK instead of using the runtime's copy: pinned versions, only the used commands.
  external: [],
  // Cold-start trimming (`npm run bench`, part 1). Paths are relative to the project root, esbuild's
  // working directory here and in the CDK's local bundling. test/infra/bundles.test.ts fails when an
  // SDK upgrade makes an alias stop matching, and on any esbuild warning.
  alias: {
    // Lambda passes the role's credentials as environment variables: the SDK's default chain always
    // stops at its first link there, so only that link is bundled (same credentials, far less code).
    '@aws-sdk/credential-provider-node': './lambda/runtime/bundle-shims/env-credentials-provider.ts',
    // DynamoDB streams no events; the SDK's dynamic import of the codec kept it in every bundle.
    '@smithy/core/event-streams': './lambda/runtime/bundle-shims/no-event-streams.ts',
  },
} satisfies BuildOptions;

export type LambdaBundleOptions = typeof LAMBDA_BUNDLE_OPTIONS;
