// Lint rules that catch real defects; formatting is left to the author.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'bench/.work/**', '.tmp/**', '.dist-*/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-imports': 'off',
    },
  },
  {
    // Commands get IO, API client and config through their context, so tests can hand in fakes.
    files: ['src/commands/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: ['undici'], patterns: ['undici/*'] }],
      'no-restricted-globals': ['error', { name: 'process', message: 'Commands use ctx.io / ctx.env, never process.' }],
    },
  },
);
