import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import checkFile from 'eslint-plugin-check-file';
import globals from 'globals';

// ---------------------------------------------------------------------------------------------
// Web import zones: app → features → shared (components/, lib/, api/, test/). A feature never imports another
// feature; shared code never imports a feature or the app. Zones are checked on resolved paths, so every
// relative spelling of an import is caught. Each feature folder found on disk gets its zone.
// ---------------------------------------------------------------------------------------------
const webSrc = 'apps/web/src';
const webFeatures = readdirSync(`${webSrc}/features`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const webZones = [
  ...webFeatures.map((feature) => ({
    target: `./${webSrc}/features/${feature}`,
    from: `./${webSrc}/features`,
    except: [`./${feature}`],
    message: 'Features never import each other: move what several features read to src/api, src/lib or src/components.',
  })),
  {
    target: `./${webSrc}/features`,
    from: `./${webSrc}/app`,
    message: 'Features never import the app layer; the app passes what a feature needs as props.',
  },
  {
    target: [`./${webSrc}/components`, `./${webSrc}/lib`, `./${webSrc}/api`, `./${webSrc}/test`],
    from: [`./${webSrc}/features`, `./${webSrc}/app`],
    message: 'Shared code (components, lib, api) never imports a feature or the app.',
  },
  {
    target: `./${webSrc}/lib`,
    from: [`./${webSrc}/components`, `./${webSrc}/api`],
    message: 'lib/ is the bottom layer: it imports no component and no endpoint.',
  },
];

// ── The server's shape (see docs/ARCHITECTURE.md "Rules the linter enforces") ──────────────────────────────────
const serverSrc = 'apps/server/src';
const serverModules = readdirSync(`${serverSrc}/modules`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const serverTopLevel = readdirSync(serverSrc, { withFileTypes: true })
  .filter((entry) => entry.name !== 'modules')
  .map((entry) => `${serverSrc}/${entry.name}`);
/** A module is imported from outside only through its public entry, `modules/<feature>/index.ts`. */
const moduleEntryZones = serverModules.map((name) => ({
  target: [
    ...serverTopLevel,
    'apps/server/test',
    ...serverModules.filter((other) => other !== name).map((other) => `${serverSrc}/modules/${other}`),
  ],
  from: `${serverSrc}/modules/${name}`,
  except: ['./index.ts'],
  message: `Import the ${name} module through its public entry (modules/${name}/index.ts).`,
}));
/** Direction: modules may use the platform layer and lib; the platform layer and lib never use modules. */
const layerZones = [
  {
    target: `${serverSrc}/platforms`,
    from: [`${serverSrc}/modules`, `${serverSrc}/plugins`],
    message: 'The platform layer does not depend on features.',
  },
  {
    target: `${serverSrc}/lib`,
    from: [`${serverSrc}/modules`, `${serverSrc}/platforms`, `${serverSrc}/plugins`],
    message: 'lib/ holds shared helpers only: it depends on no feature, plugin or platform.',
  },
];
const platformSdks = {
  patterns: [
    {
      group: ['@twurple/*', 'tiktok-live-connector', 'tiktok-live-connector/*'],
      message: 'Platform SDKs are used only inside apps/server/src/platforms (behind the port).',
    },
  ],
};

export default tseslint.config(
  { ignores: ['**/node_modules', '**/dist', 'data', 'test-results', 'playwright-report', 'apps/server/src/db/migrations'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js'], defaultProject: 'tsconfig.tools.json' },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/only-throw-error': 'error',
      'no-restricted-syntax': ['error', { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' }],
    },
  },
  // ── Every file: no import cycles, kebab-case file names ──────────────────────────────────────────────────────
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX, 'check-file': checkFile },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'check-file/filename-naming-convention': ['error', { '**/*.{ts,tsx}': 'KEBAB_CASE' }, { ignoreMiddleExtensions: true }],
      'no-restricted-imports': ['error', platformSdks],
    },
  },
  // ── Server zones: modules through their public entry; one direction between layers; SDKs in platforms/ only ──
  {
    files: ['apps/server/**/*.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: [...moduleEntryZones, ...layerZones] }] },
  },
  {
    // The emulator's own tests drive it with the real SDKs: a client library that cannot talk to it proves it wrong.
    files: ['apps/server/src/platforms/**/*.ts', 'packages/platform-emulator/test/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    // Web import zones (see webZones above); the plugin and resolver are set up for every file above.
    files: [`${webSrc}/**/*.{ts,tsx}`],
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: webZones }] },
  },
  {
    files: ['**/*.config.{js,ts}', 'eslint.config.js'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['**/*.test.{ts,tsx}', '**/test/**', 'e2e/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
      // Tests read JSON bodies and assert on them; the assertions are the type check there.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
    },
  },
);
