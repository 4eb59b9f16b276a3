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
    // Rules that need the types: a promise nobody awaits loses its error, a promise where a callback's void is expected
    // is never awaited, an await of a non-promise or an async function without await hides what runs when, and a
    // switch over a union names every member or says in a default what becomes of the rest, so that a new zone,
    // status or fault kind is never dropped unseen.
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/require-await': 'error',
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
