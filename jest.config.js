/**
 * Three projects: fast unit specs beside the code; end-to-end suites that run the real app in-process against the
 * upstream emulators; and system suites that drive it from outside (the built service and command line as processes,
 * a real browser, Prism, generated clients). Every suite starts its own servers and Redis on free ports, so the
 * suites run in parallel workers (`--maxWorkers` in package.json).
 */
const tsJest = { '^.+\\.ts$': 'ts-jest' };
/** cheap-ruler is published as an ES module only; Jest on Node 20 loads its own UMD build instead. */
const moduleNameMapper = { '^cheap-ruler$': '<rootDir>/node_modules/cheap-ruler/cheap-ruler.js' };
const project = (displayName, testMatch) => ({
  displayName,
  testEnvironment: 'node',
  rootDir: '.',
  testMatch,
  transform: tsJest,
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper,
});
module.exports = {
  // A hang guard, not a speed goal (Jest ignores testTimeout inside a project): suites start real servers and
  // processes, and must pass on a machine busy with other work. Figures of speed live in `npm run bench`.
  testTimeout: 120_000,
  testSequencer: '<rootDir>/test/suite-order.js',
  projects: [
    project('unit', ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts']),
    project('e2e', ['<rootDir>/test/e2e/**/*.e2e-spec.ts']),
    project('system', ['<rootDir>/test/e2e/**/*.system-spec.ts']),
  ],
};
