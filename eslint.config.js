// Lint rules that catch real defects; formatting is Prettier's (npm run format; checked by npm run lint).
import tseslint from 'typescript-eslint';

// Arrows point one way (docs/ARCHITECTURE.md): core never reaches up into commands or output, and the
// mock never reaches into the CLI. Static imports are checked by no-restricted-imports, dynamic
// import() by no-restricted-syntax (the first does not see them).
const CORE_UP = '(^|/)(commands|output)/';
const CORE_MESSAGE =
  'src/core is shared by every noun: it never imports src/commands or src/output (move the piece down into core, or pass it in).';
const BOOT = '(^|/)boot/';
const BOOT_MESSAGE =
  'src/boot (process entry, bundle loader, build-time help) stands apart from the application: nothing in it is imported back.';
const MOCK_MESSAGE =
  'src/mock stands apart: it never imports the CLI (anything outside src/mock but the service model, src/model, and openapi.json).';
const MODEL_MESSAGE = 'src/model is the service model the CLI and the mock both read: pure data, it imports nothing outside src/model.';

/** Static and dynamic imports whose specifier matches `regex` are errors with `message`. */
function forbidImports(regex, message) {
  return {
    'no-restricted-imports': ['error', { patterns: [{ regex, message }] }],
    'no-restricted-syntax': ['error', { selector: `ImportExpression > Literal[value=/${regex.replaceAll('/', '\\/')}/]`, message }],
  };
}

/**
 * From a file `depth` folders below src/mock, a relative path leaving src/mock: openapi.json (the
 * published contract the mock serves) and the service model (src/model, shared with the CLI) excepted.
 */
function mockEscape(depth) {
  return `^(\\.\\./){${depth + 1},}(?!\\.\\./)(?!openapi\\.json$)(?!model/)`;
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'bench/.work/**', '.tmp/**', '.dist-*/**', '.sea-*/**'] },
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
  { files: ['src/core/**/*.ts'], rules: forbidImports(`${CORE_UP}|${BOOT}`, `${CORE_MESSAGE} ${BOOT_MESSAGE}`) },
  { files: ['src/main.ts', 'src/commands/**/*.ts', 'src/output/**/*.ts'], rules: forbidImports(BOOT, BOOT_MESSAGE) },
  { files: ['src/model/*.ts'], rules: forbidImports('^\\.\\./', MODEL_MESSAGE) },
  { files: ['src/mock/*.ts'], rules: forbidImports(mockEscape(0), MOCK_MESSAGE) },
  { files: ['src/mock/*/*.ts'], rules: forbidImports(mockEscape(1), MOCK_MESSAGE) },
  { files: ['src/mock/*/*/*.ts'], rules: forbidImports(mockEscape(2), MOCK_MESSAGE) },
  { files: ['src/mock/*/*/*/*.ts'], rules: forbidImports(mockEscape(3), MOCK_MESSAGE) },
  // The launcher is CommonJS (bin/package.json): Node's ES module loader costs several ms per start.
  { files: ['bin/*.js'], languageOptions: { sourceType: 'commonjs' }, rules: { '@typescript-eslint/no-require-imports': 'off' } },
);
