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
    // A function's bundle builds only the schemas of its own operation (bench/, part 1): Lambda code
    // imports its spec from operation-specs/, never the table of all of them (and the schemas) in
    // operations.ts, and never the answer schemas that only the OpenAPI document needs.
    files: ['lambda/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '/operations$', message: 'import the operation\'s own spec from lambda/shared/operation-specs/' },
            { regex: '/schemas/(pet|message)-response$', message: 'answer schemas are for the OpenAPI document; import their types only', allowTypeImports: true },
          ],
        },
      ],
    },
  },
);
