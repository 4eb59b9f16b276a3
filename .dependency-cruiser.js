/**
 * Import rules: dependencies point down. `common/` and `config/` are the floor and import no feature; feature
 * folders may import each other only without cycles; nothing in src/ imports tests, benchmarks or scripts; the
 * pure flood rules reach nothing outside the process; an answer part leans on no other part.
 * Run by `npm test` (lint:deps), so a change that breaks a rule fails the suite.
 */

/**
 * The pure flood rules: functions of their arguments, tested table by table, with no I/O. In src/flood-hazard/ and in
 * each answer part's folder (src/parts/<part>/) every file is one unless its name says it reaches outside or wires
 * the part (`*.client.ts`, `*-port.ts`: the interfaces the clients implement, `*.module.ts`, `*.part.ts`, `*.dto.ts`), so
 * a new rule file there is held to this by being there; a pure rule elsewhere is named here.
 */
const PURE_RULES = {
  path: [
    '^src/flood-hazard/[^/]+\\.ts$',
    '^src/parts/[^/]+/[^/]+\\.ts$',
    '^src/map-picture/map-area\\.ts$',
    '^src/map-picture/map-legend\\.ts$',
    '^src/report/plain-words\\.ts$',
    '^src/watches/watch-fingerprint\\.ts$',
    '^src/watches/watch-grid\\.ts$',
  ],
  pathNot: ['(\\.client|-port|\\.module|\\.part|\\.dto|\\.spec)\\.ts$'],
};

/** An answer part: its folder `src/parts/<name>/`. */
const ANSWER_PART = '^src/parts/([^/]+)/';
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
      name: 'pure-rules-do-no-io',
      comment:
        'A pure flood rule imports no framework, HTTP client, Redis or cache library, node:http(s) or upstream client: what it decides ' +
        'depends on its arguments alone, so a table of cases tests it whole.',
      severity: 'error',
      from: PURE_RULES,
      to: {
        path: ['node_modules/(@nestjs|axios|ioredis|bullmq|keyv|@keyv|cache-manager|cacheable)/', '^(node:)?(http|https|http2|net)$', '\\.client\\.ts$'],
      },
    },
    {
      name: 'parts-import-no-part',
      comment:
        "Each answer part stands alone (its upstream, its rule, its failure as null): it may use the parts' shared " +
        'definitions (src/parts/answer-part.ts) but no other part, so a part can be added, dropped or fail without touching another.',
      severity: 'error',
      from: { path: ANSWER_PART },
      to: { path: '^src/parts/[^/]+/', pathNot: '^src/parts/$1/' },
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
