/** Two projects: fast unit specs beside the code, and end-to-end suites that run the real app against the upstream emulators. */
const tsJest = { '^.+\\.ts$': 'ts-jest' };
module.exports = {
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
      transform: tsJest,
      moduleFileExtensions: ['ts', 'js', 'json'],
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      transform: tsJest,
      moduleFileExtensions: ['ts', 'js', 'json'],
      testTimeout: 60000,
    },
  ],
};
