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
	// A guard against a test that hangs, not a speed target: the property tests run a node dozens
	// of times, and on a loaded 2-core machine (CI's lanes beside it) jest's 5 s default was once
	// exceeded by outcome-machine (order.accept), whose next property then read a half-reset mock.
	testTimeout: 60_000,
	setupFilesAfterEnv: ['<rootDir>/test/unit/helpers/setup.ts'],
};
