import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', 'coverage/', '.petstore/', '.ci/.node/', 'test-artifacts/', '.tools/'] },
  eslint.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly' } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      // `const { secret: _secret, ...shown } = record` is how we drop fields before printing.
      '@typescript-eslint/no-unused-vars': ['error', { varsIgnorePattern: '^_', argsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // Layers depend one way (DESIGN.md §10): infrastructure never imports the runtime, the local
    // emulation, the OpenAPI generator or tooling; plain data in lib/ is what they share.
    files: ['lib/**/*.ts', 'bin/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)(lambda|local|openapi|scripts|bench|test)/', message: 'lib/ (infrastructure) may not import runtime, emulation or tooling code' }] },
      ],
    },
  },
  {
    files: ['lambda/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
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
            { regex: '/schemas/(pet|message)-response$', message: 'answer schemas are for the OpenAPI document; import their types only', allowTypeImports: true },
          ],
        },
      ],
    },
  },
);
