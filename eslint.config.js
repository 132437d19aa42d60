import eslint from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

/** What Lambda code may import: only lambda/ and the plain data of lib/. */
const LAMBDA_IMPORTS = {
  paths: [
    { name: 'aws-cdk-lib', message: 'Lambda code never imports aws-cdk-lib' },
    { name: 'constructs', message: 'Lambda code never imports aws-cdk-lib' },
  ],
  patterns: [
    { regex: '^aws-cdk-lib/', message: 'Lambda code never imports aws-cdk-lib' },
    { regex: '(^|/)(local|openapi|scripts|bench|test)/', message: 'Lambda code imports only lambda/ and the plain data of lib/' },
    { regex: '/lib/(petstore-|stage-config)', message: 'Lambda code imports only the plain data of lib/, never its constructs' },
    // A function's bundle builds only the schemas of its own operation (`npm run bench`, part 1).
    { regex: '/operations$', message: "import the operation's own spec from lambda/shared/operation-specs/" },
    {
      regex: '/schemas/(pet|message)-response$',
      message: 'answer schemas are for the OpenAPI document; import their types only',
      allowTypeImports: true,
    },
  ],
};

export default defineConfig(
  {
    ignores: [
      'node_modules/',
      'cdk.out/',
      'coverage/',
      '.petstore/',
      '.ci/.node/',
      'test-artifacts/',
      '.tools/',
      'test/contract/generated-client/',
    ],
  },
  eslint.configs.recommended,
  // Type-aware: floating promises, misused promises, unsafe `any` flows, needless conditions …
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly' },
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', 'scripts/*.mjs', 'test/support/*.js'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      // Numbers and booleans read fine in messages; objects, undefined and null in a template are the bugs.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      // `(x) => void sideEffect(x)` and one-line arrow callbacks are idiomatic here.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true, ignoreVoidOperator: true }],
      // `const { secret: _secret, ...shown } = record` is how we drop fields before printing.
      '@typescript-eslint/no-unused-vars': ['error', { varsIgnorePattern: '^_', argsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // The portal's pages: plain browser ES modules (no build step), linted without type information.
    files: ['portal/**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      sourceType: 'module',
      parserOptions: { projectService: false },
      globals: Object.fromEntries(
        [
          'window',
          'document',
          'location',
          'navigator',
          'sessionStorage',
          'fetch',
          'FormData',
          'URLSearchParams',
          'URL',
          'confirm',
          'getSelection',
          'SwaggerUIBundle',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
  {
    // Jest's asymmetric matchers (`expect.any(String)`, `expect.objectContaining(…)`) are typed `any`.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-unsafe-assignment': 'off' },
  },
  {
    // Production code and tooling never import tests: what both need lives outside test/.
    files: ['local/**/*.ts', 'scripts/**/*.ts', 'openapi/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)test/', message: 'nothing outside test/ imports from test/' }] },
      ],
    },
  },
  {
    // Layers depend one way (README, Design in brief): infrastructure never imports the runtime, the local
    // emulation, the OpenAPI generator or tooling; plain data in lib/ is what they share.
    files: ['lib/**/*.ts', 'bin/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(lambda|local|openapi|scripts|bench|test)/',
              message: 'lib/ (infrastructure) may not import runtime, emulation or tooling code',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['lambda/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', LAMBDA_IMPORTS] },
  },
  {
    // The data layer speaks domain: it throws lambda/shared/domain-errors.ts, and the error middleware maps them.
    files: ['lambda/shared/repositories/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          ...LAMBDA_IMPORTS,
          patterns: [
            ...LAMBDA_IMPORTS.patterns,
            { regex: '/errors$', message: 'repositories throw domain errors (lambda/shared/domain-errors.ts), never HTTP errors' },
          ],
        },
      ],
    },
  },
);
