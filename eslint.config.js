// ESLint for Kiln: typescript-eslint's recommended rules, plus the type-aware
// rules that catch what a framework cannot afford (a promise nobody awaits, a
// promise where a callback's result is ignored). Formatting is Prettier's job
// (`.prettierrc.json`); eslint-config-prettier turns off the rules it owns.
// Why typescript-eslint + Prettier and not Biome: see docs/architecture.md.
import js from '@eslint/js'
import prettier from 'eslint-config-prettier'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      'dist/**',
      'tmp/**',
      'app-template/storage/**',
      'plugins/comp/dist/**',
      'packages/rt/dist/**',
      'app-template/public/**',
      '**/*.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      // Decorators, mixins (`abstract new (...args: any[])`) and untyped driver payloads need `any`; strict mode still
      // checks everything else, and a disable comment on each of them would say nothing.
      '@typescript-eslint/no-explicit-any': 'off',
      // Classes are keys of the component and model registries (`WeakMap<Function, ...>`): any class, of any constructor.
      '@typescript-eslint/no-unsafe-function-type': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // The component client and @kiln/rt run in the browser.
    files: ['plugins/comp/client/**', 'plugins/comp/features/*/client/**', 'packages/rt/src/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Tests match terminal colour codes (\x1b) in output.
    files: ['tests/**'],
    rules: { 'no-control-regex': 'off' },
  },
  prettier,
)
