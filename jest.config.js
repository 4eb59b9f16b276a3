/** Two projects: fast unit specs beside the code, and end-to-end suites that run the real app against the upstream emulators. */
const tsJest = { '^.+\\.ts$': 'ts-jest' };
/** cheap-ruler is published as an ES module only; Jest on Node 20 loads its own UMD build instead. */
const moduleNameMapper = { '^cheap-ruler$': '<rootDir>/node_modules/cheap-ruler/cheap-ruler.js' };
module.exports = {
  // A global option: Jest ignores testTimeout inside a project. End-to-end suites start real servers.
  testTimeout: 60000,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
      transform: tsJest,
      moduleFileExtensions: ['ts', 'js', 'json'],
      moduleNameMapper,
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      transform: tsJest,
      moduleFileExtensions: ['ts', 'js', 'json'],
      moduleNameMapper,
    },
  ],
};
