/**
 * How every function is bundled, as plain esbuild options: lib/petstore-function.ts maps them onto NodejsFunction's
 * props; benchmarks and tests pass them to `esbuild.build` to get the bundle Lambda runs.
 */
import type { BuildOptions } from 'esbuild';

/** Lambda loads a CommonJS bundle from `index.js` (no package.json `type` travels with the bundle). */
export const LAMBDA_BUNDLE_FILE = 'index.js';

export const LAMBDA_BUNDLE_OPTIONS = {
  bundle: true,
  platform: 'node',
  // CommonJS: an ES module's import of a Node built-in reads every export, lazy getters included, loading code
  // nobody calls; `require()` reads only what is used (`npm run bench`, part 1).
  format: 'cjs',
  target: 'node24',
  minify: true,
  // For lambda/runtime/source-mapped-stack.ts, which reads it only when an error is logged (Node's
  // --enable-source-maps would parse it at every cold start); mappings only, not the sources.
  sourcemap: true,
  sourcesContent: false,
  treeShaking: true,
  // ES module builds, which tree-shaking can trim.
  mainFields: ['module', 'main'],
  // `import()` of what stays outside the bundle (Node's built-ins) as `require()`: an ES module's view of a built-in
  // reads every export, lazy ones included. The SDK imports node:http so on its first call to an http endpoint (the
  // local engine; AWS's are https, whose module it loads at init), which loaded undici: 30 ms of CPU (part 1).
  supported: { 'dynamic-import': false },
  // Bundle the AWS SDK instead of using the runtime's copy: pinned versions, only the used commands.
  external: [],
  // Cold-start trimming (`npm run bench`, part 1), relative to the project root; test/infra/bundles.test.ts fails
  // when an SDK upgrade makes an alias stop matching.
  alias: {
    // Lambda passes the role's credentials as environment variables, the default chain's first link.
    '@aws-sdk/credential-provider-node': './lambda/runtime/bundle-shims/env-credentials-provider.ts',
    // DynamoDB streams no events; the SDK's dynamic import of the codec kept it in every bundle.
    '@smithy/core/event-streams': './lambda/runtime/bundle-shims/no-event-streams.ts',
  },
} satisfies BuildOptions;
