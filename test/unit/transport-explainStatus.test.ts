import { readServiceError } from '../../nodes/shared/transport';

const byStatus = { 403: 'Status-specific explanation' };

describe('apiRequest explainStatus (per-call explanation of an HTTP status)', () => {
	it('explains an answer without errorCode by the status given for the call', () => {
		expect(
			readServiceError(403, { statusCode: 403 }, undefined, undefined, byStatus).explanation,
		).toBe('Status-specific explanation');
	});

	it('replaces the explanation of a generic code and of a code the package does not know', () => {
		expect(
			readServiceError(403, { errorCode: 'FORBIDDEN' }, undefined, undefined, byStatus).explanation,
		).toBe('Status-specific explanation');
		expect(
			readServiceError(403, { errorCode: 'SOMETHING_NEW' }, undefined, undefined, byStatus)
				.explanation,
		).toBe('Status-specific explanation');
	});

	it('keeps the explanation of a specific code', () => {
		expect(
			readServiceError(403, { errorCode: 'COMPANY_INACTIVE' }, undefined, undefined, byStatus)
				.explanation,
		).toBe('The company is disabled');
	});

	it('does not apply when the body names a missing permission', () => {
		const info = readServiceError(
			403,
			{ errorCode: 'FORBIDDEN', required: 'members.remove' },
			undefined,
			undefined,
			byStatus,
		);
		expect(info.explanation).toBe('This action is not allowed for this key or account');
		expect(info.required).toBe('members.remove');
	});

	it('gives way to explain for the errorCode', () => {
		expect(
			readServiceError(
				403,
				{ errorCode: 'FORBIDDEN' },
				undefined,
				{ FORBIDDEN: 'Code-specific' },
				byStatus,
			).explanation,
		).toBe('Code-specific');
	});

	it('applies only to the statuses it names; without it nothing changes', () => {
		expect(
			readServiceError(404, { errorCode: 'NOT_FOUND' }, undefined, undefined, byStatus).explanation,
		).toBe('The requested object does not exist');
		expect(readServiceError(403, { errorCode: 'FORBIDDEN' }).explanation).toBe(
			'This action is not allowed for this key or account',
		);
		expect(readServiceError(403, {}).explanation).toBe('This key may not perform this action');
	});
});
