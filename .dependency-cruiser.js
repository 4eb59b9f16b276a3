/**
 * Import rules: dependencies point down. `common/` and `config/` are the floor and import no feature; feature
 * folders may import each other only without cycles; nothing in src/ imports tests, benchmarks or scripts.
 * Run by `npm test` (lint:deps), so a change that breaks a rule fails the suite.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'common-imports-no-feature',
      comment: 'common/ is shared by every feature: it may import only common/ and config/, never a feature folder.',
      severity: 'error',
      from: { path: '^src/common/' },
      to: { path: '^src/', pathNot: ['^src/common/', '^src/config/', '^src/types\\.d\\.ts$'] },
    },
    {
      name: 'config-imports-no-feature',
      comment: 'config/ reads the environment; it depends on nothing but common/.',
      severity: 'error',
      from: { path: '^src/config/' },
      to: { path: '^src/', pathNot: ['^src/config/', '^src/common/'] },
    },
    {
      name: 'no-folder-cycles',
      comment: 'Feature folders form a hierarchy: a folder that imports another is never imported back by it, however indirectly.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-circular',
      comment: 'No module reaches itself through its imports.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'src-imports-no-tests',
      comment: 'The service never loads test, benchmark or script code.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|bench|scripts)/' },
    },
    {
      name: 'no-orphans',
      comment: 'A module nothing imports is dead code (entry points and specs excepted).',
      severity: 'error',
      from: { orphan: true, path: '^src/', pathNot: ['\\.spec\\.ts$', '^src/main\\.ts$', '^src/cli/main\\.ts$', '\\.d\\.ts$', '\\.json$'] },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['\\.spec\\.ts$'] },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
