// The outside read of the process boundary (F7, F10): a card number grouped by spaces and then
// URL-encoded passed the gate in free text and unknown fields, and the model's "long number" rule
// cut through hex identifiers (a tx hash) written into a free text. Each case through the user's
// and the model's door, in a free text (a payout's comment), an unknown field and a log line.
import type { IDataObject } from 'n8n-workflow';

import { gateJson, gateText, learnFromRequest, openRun } from '../../nodes/shared/gate';
import type { Audience } from '../../nodes/shared/gate';

const CARD = '4111111111111111';
const AUDIENCES: Audience[] = ['user', 'model'];

/** What a reader can rebuild from a text: URL-decoded (also `+`), every separator dropped. */
function recoverable(text: string): string {
	let out = text.replace(/\+/g, ' ');
	for (let round = 0; round < 2; round++) {
		try {
			out = decodeURIComponent(out);
		} catch {
			break;
		}
	}
	return out.replace(/[^0-9]/g, '');
}

function payout(comment: string): IDataObject {
	return {
		id: 'po_1',
		externalId: 'inv_20261142',
		status: 'fail',
		requisiteType: 'phone',
		requisite: '+79991234567',
		comment,
		createdAt: '2026-11-28T09:00:00Z',
	};
}

const groups = (gap: string) => (CARD.match(/.{4}/g) ?? []).join(gap);

describe('F7: a card number grouped, then URL-encoded, is masked in free text and unknown fields', () => {
	const shapes: Array<[string, string]> = [
		['%20', groups('%20')],
		['+', groups('+')],
		['%C2%A0 (no-break space)', groups('%C2%A0')],
		['%c2%a0 (lower-case hex)', groups('%c2%a0')],
		['%E2%80%89 (thin space)', groups('%E2%80%89')],
		['%E2%80%AF (narrow no-break space)', groups('%E2%80%AF')],
		['%E2%80%87 (figure space)', groups('%E2%80%87')],
		['%20-%20 (spaces around a dash)', groups('%20-%20')],
		['%2D (an encoded dash)', groups('%2D')],
		['%2E (an encoded dot)', groups('%2E')],
		['%2520 (encoded twice)', groups('%2520')],
		['%20 after an encoded name (pan%3D…)', `pan%3D${groups('%20')}`],
	];

	it.each(shapes)(
		'separator %s in a comment with a link and a form: hidden for user and model',
		(_name, shown) => {
			const comment = `bank rejected https://bank.example/check?card=${shown} (form: card=${shown}, raw ${shown})`;
			for (const audience of AUDIENCES) {
				const out = gateJson(undefined, payout(comment), audience);
				expect(recoverable(JSON.stringify(out))).not.toContain(CARD.slice(0, 12));
				expect(out.id).toBe('po_1');
				expect(out.externalId).toBe('inv_20261142');
			}
		},
	);

	it.each(shapes)('separator %s in an unknown field and in a log line: hidden', (_name, shown) => {
		for (const audience of AUDIENCES) {
			const out = gateJson(undefined, { id: 'po_1', bankTrace: `pan=${shown}` }, audience);
			expect(recoverable(JSON.stringify(out))).not.toContain(CARD.slice(0, 12));
			expect(recoverable(gateText(undefined, `retry of ${shown} failed`, audience))).not.toContain(
				CARD.slice(0, 12),
			);
		}
	});

	it('a text that only looks encoded (a percentage, a date) is left as it was', () => {
		const comment = 'fee 2%20 of 1000+2000, due 2026-11-28';
		for (const audience of AUDIENCES) {
			expect(gateJson(undefined, payout(comment), audience).comment).toBe(comment);
		}
	});
});

describe('F10: hex identifiers in free text are never altered for the model', () => {
	const hashes = [
		'a3f1c2d4e5b6978812345678abcdef0123456789abcdef0123456789abcdef01',
		'0x9f1234567890123456abcdefabcdefabcdef1234567890abcdef123456789012',
		'1234567890123456789012345678901234567890123456789012345678abcdef',
		'abcdef1234567890123456789012345678901234567890123456789012345678',
		'123e4567-e89b-12d3-a456-426614174000',
	];

	it.each(hashes)('tx %s named in a comment: byte-exact for the user and the model', (tx) => {
		const comment = `payout po_1 failed, tx ${tx} (see ${tx}.)`;
		for (const audience of AUDIENCES) {
			expect(gateJson(undefined, payout(comment), audience).comment).toBe(comment);
			expect(gateText(undefined, comment, audience)).toBe(comment);
		}
	});

	it('a phone and a card number standing as numbers in a text: still hidden from the model', () => {
		const comment = `call +79991234567 or 89991234567, card ${CARD}, account 40817810099910004312.`;
		const out = String(gateJson(undefined, payout(comment), 'model').comment);
		expect(out).not.toContain('9991234567');
		expect(out).not.toContain(CARD.slice(0, 12));
		expect(out).not.toContain('4081781009991');
		expect(out).toContain('call ');
	});
});

describe('F7: a card number the run knows by value (no checksum), grouped and URL-encoded', () => {
	const KNOWN = '2200123456789012';
	const grouped = (gap: string) => (KNOWN.match(/.{4}/g) ?? []).join(gap);

	it.each(['%20', '+', '%C2%A0', '%2520', '%2D'])(
		'separator %s in a link of an error body: hidden for user and model',
		(gap) => {
			const run = {};
			openRun(run);
			learnFromRequest(run, {
				path: '/payouts',
				body: { requisiteType: 'card', requisite: KNOWN, amountRub: 1000 },
			});
			const body = {
				errorCode: 'PAYOUT_REQUISITE_INVALID',
				message: `Реквизит ${grouped(' ')} недействителен`,
				details: { check: `https://bank.example/v?card=${grouped(gap)}&x=1` },
			};
			for (const audience of AUDIENCES) {
				const out = JSON.stringify(gateJson(run, body, audience));
				expect(recoverable(out)).not.toContain(KNOWN.slice(0, 12));
			}
		},
	);
});
