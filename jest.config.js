/**
 * Unit tests: TypeScript under test/unit, HTTP mocked with nock. ts-jest only transpiles
 * (isolatedModules, fast); `npm run typecheck:test` (tsconfig.test.json, part of `npm test`)
 * type-checks the tests with the package's own strict settings, so a missing case of an
 * exhaustive table is a compile error.
 */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/unit'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: { isolatedModules: true, esModuleInterop: true } }],
	},
	restoreMocks: true,
	setupFilesAfterEnv: ['<rootDir>/test/unit/helpers/setup.ts'],
};
