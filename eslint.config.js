import eslint from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

/**
 * The layers, top to bottom (docs/development.md): a folder imports only the folders below it, the
 * layers of lambda/ by their aliases (`#data/…`), never by a relative path out of their folder.
 */
const LAMBDA_LAYERS = ['handlers', 'http', 'data', 'auth', 'contract', 'runtime'];
/** local/'s folders, top to bottom (docs/development.md): each imports only the ones below it. */
const LOCAL_LAYERS = ['dev', 'identity', 'gateway', 'engine'];
/** @param {...{ regex: string, message: string, allowTypeImports?: boolean }} patterns */
const restrict = (...patterns) => ({ '@typescript-eslint/no-restricted-imports': ['error', { patterns }] });
const CDK = { regex: '^(aws-cdk-lib|constructs)(/|$)', message: 'only lib/ (the infrastructure) imports aws-cdk-lib' };
const TESTS = { regex: '(^|/)test/', message: 'nothing outside test/ imports from test/' };
const TOOLING = {
  regex: '^#(lib|local|openapi|scripts)/|(^|/)(bin|lib|local|openapi|scripts|bench|test)/',
  message: 'Lambda code imports only lambda/ and shared/',
};
const OUT_OF_FOLDER = { regex: '^\\.\\./\\.\\./', message: 'another layer is imported by its alias (#http/…, #data/…)' };

/**
 * The rules of one layer of lambda/: nothing above it, nothing of the infrastructure or tooling.
 * @param {string} layer
 * @param {...{ regex: string, message: string }} extra
 */
function lambdaLayer(layer, ...extra) {
  const above = LAMBDA_LAYERS.slice(0, LAMBDA_LAYERS.indexOf(layer));
  return {
    files: [`lambda/${layer}/**/*.ts`],
    rules: restrict(
      CDK,
      TOOLING,
      OUT_OF_FOLDER,
      ...(above.length > 0
        ? [
            {
              regex: `^#(${above.join('|')})/`,
              message: `lambda/${layer} may import only the layers below it: ${LAMBDA_LAYERS.slice(LAMBDA_LAYERS.indexOf(layer) + 1).join(', ')}, shared`,
            },
          ]
        : []),
      {
        regex: '/schemas/(pet|message)-response$',
        message: 'answer schemas are for the OpenAPI document; import their types only',
        allowTypeImports: true,
      },
      ...extra,
    ),
  };
}

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
      'clients/typescript/dist/',
      'test/contract/generated-hey-api/',
      'test/contract/generated-oazapfts/',
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
    rules: restrict(TESTS),
  },
  ...LOCAL_LAYERS.slice(1).map((layer, index) => ({
    files: [`local/${layer}/**/*.ts`],
    rules: restrict(TESTS, {
      regex: `^(#local|\\.\\.)/(${LOCAL_LAYERS.slice(0, index + 1).join('|')})/`,
      message: `local/${layer} may not import the folders above it: ${LOCAL_LAYERS.slice(0, index + 1).join(', ')}`,
    }),
  })),
  {
    // The infrastructure reads the plain data of shared/; it never imports the runtime, the emulator or tooling.
    files: ['lib/**/*.ts', 'bin/**/*.ts'],
    rules: restrict({
      regex: '^#(handlers|http|data|auth|contract|runtime|local|openapi)/|(^|/)(lambda|local|openapi|scripts|bench|test)/',
      message: 'lib/ (infrastructure) may not import runtime, emulation or tooling code',
    }),
  },
  {
    // The bottom of the house: plain data the stack, the functions and the emulator share. It imports only itself,
    // and the stages' committed options (config/<stage>.json).
    files: ['shared/**/*.ts'],
    rules: restrict(CDK, {
      regex: '^(#|\\.\\./(?!config/\\w+\\.json$))',
      message: 'shared/ is plain data: it imports only its own modules and config/',
    }),
  },
  lambdaLayer('handlers'),
  {
    // The stage check is `npm run smoke` in Lambda: the smoke checks, each answer held to the OpenAPI documents.
    files: ['lambda/handlers/stage-check.ts'],
    rules: restrict(CDK, OUT_OF_FOLDER, { regex: '^#(lib|local)/|(^|/)(bin|lib|local|bench|test)/', message: TOOLING.message }),
  },
  lambdaLayer('http'),
  // The data layer speaks domain: it throws contract/domain-errors.ts, and the error middleware maps them.
  lambdaLayer('data', {
    regex: '^#contract/errors$',
    message: 'the data layer throws domain errors (#contract/domain-errors), never HTTP errors',
  }),
  lambdaLayer('auth'),
  lambdaLayer('contract'),
  lambdaLayer('runtime'),
);
