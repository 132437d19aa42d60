/**
 * How every function is bundled, as plain esbuild options: the CDK stack maps them onto
 * NodejsFunction's bundling props (lib/petstore-function.ts), and benchmarks or tests can pass them
 * straight to `esbuild.build` (adding only entryPoints and outfile) to get the bundle Lambda runs.
 * No aws-cdk-lib import here on purpose.
 */
import type { BuildOptions } from 'esbuild';

/**
 * CommonJS dependencies bundled into an ES module still call `require('node:…')`, which ESM lacks.
 * The alias keeps the banner's import from clashing with an import esbuild may emit for the same
 * built-in.
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __bundleCreateRequire } from 'node:module'; const require = __bundleCreateRequire(import.meta.url);";

/** Lambda loads an ES module only from a `.mjs` file (no package.json `type` travels with the bundle). */
export const LAMBDA_BUNDLE_FILE = 'index.mjs';

export const LAMBDA_BUNDLE_OPTIONS = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  // The Lambda runtime (nodejs24.x): no down-levelling of syntax Node 24 runs natively.
  target: 'node24',
  minify: true,
  // Stack traces point at the TypeScript source (with NODE_OPTIONS=--enable-source-maps). The map
  // carries mappings only, not the sources: smaller to load at cold start, nothing extra shipped.
  sourcemap: true,
  sourcesContent: false,
  treeShaking: true,
  // Prefer ES module builds so tree-shaking can drop unused AWS SDK and Powertools code.
  mainFields: ['module', 'main'],
  // Bundle the AWS SDK instead of using the runtime's copy: pinned versions, only the used commands.
  external: [],
  banner: { js: ESM_REQUIRE_BANNER },
  // Cold-start trimming, measured by `npm run bench` (README "Performance"). Paths are relative to the
  // project root, esbuild's working directory here and in the CDK's local bundling.
  alias: {
    // Lambda passes the role's credentials as environment variables: the SDK's default chain always
    // stops at its first link there, so only that link is bundled (same credentials, ~35 ms less).
    '@aws-sdk/credential-provider-node': './lambda/shared/env-credentials-provider.ts',
    // `import … from 'node:http'` loads undici for http.WebSocket (~30 ms); this reads only what is used.
    'node:http': './lambda/shared/node-http-namespace-free.ts',
    http: './lambda/shared/node-http-namespace-free.ts',
  },
  outExtension: { '.js': '.mjs' },
} satisfies BuildOptions;

export type LambdaBundleOptions = typeof LAMBDA_BUNDLE_OPTIONS;
