// Lint rules for the service, its tests, benchmarks and scripts; formatting is Prettier's alone.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'coverage/**', 'bench/.service/**', 'node_modules/**', 'test/client/generated/**', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      eqeqeq: ['error', 'always'],
      'no-console': 'error',
    },
  },
  {
    // The command line, benchmarks, scripts and emulators talk to a person on the terminal.
    files: ['src/cli/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts', 'test/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    // Tests, benchmarks and scripts read JSON answers of every shape, the very thing they check.
    files: ['bench/**/*.ts', 'scripts/**/*.ts', 'test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
