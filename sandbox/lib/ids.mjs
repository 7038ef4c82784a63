// Identifier sources. Seed data uses a seeded generator so the demo looks the same on every
// start; everything created at runtime uses crypto randomness, so delivery ids and secrets
// never repeat across sandbox restarts (a receiver that persists seen delivery ids relies on that).
import { randomBytes, randomUUID } from 'node:crypto';

export function randomIds() {
	return {
		uuid: () => randomUUID(),
		hex: (bytes) => randomBytes(bytes).toString('hex'),
		digits: (count) => {
			let out = '';
			const bytes = randomBytes(count);
			for (const b of bytes) out += String(b % 10);
			return out;
		},
	};
}

/** mulberry32: tiny deterministic PRNG, good enough for fake seed data. */
export function seededIds(seed) {
	let a = seed >>> 0;
	const next = () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	const hexChars = (n) => {
		let out = '';
		for (let i = 0; i < n; i++) out += Math.floor(next() * 16).toString(16);
		return out;
	};
	return {
		uuid: () => {
			const h = hexChars(32);
			const variant = '89ab'[Math.floor(next() * 4)];
			return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
		},
		hex: (bytes) => hexChars(bytes * 2),
		digits: (count) => {
			let out = '';
			for (let i = 0; i < count; i++) out += String(Math.floor(next() * 10));
			return out;
		},
		random: next,
	};
}
