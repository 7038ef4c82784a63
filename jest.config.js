/** Unit tests: TypeScript under test/unit, HTTP mocked with nock. */
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
