import { INVITE_URL_TOKEN_PARAMETER } from '../contract/assumptions';
import {
	chainAddress,
	knownCryptoToken,
	numberOfRegistries,
	registriesIn,
	secretValueShown,
} from '../contract/records';
import type { Registry } from '../contract/records';
import { HIDDEN_PART, maskedAlready, maskRequisite, maskWebhookSecret } from './masks';
import { namedSecret } from './pairs';

/*
 * Free-text patterns: what a secret looks like when nothing names it. They are read only in free
 * text (messages, comments, log lines, error texts) and in fields the document does not show
 * (fields.ts decides which), never in an identifier or an amount. A value this run knows as an
 * identifier (learned.ts) is never taken for a secret by its look, also inside a text.
 */

/** A field name without case and separators: `X-Api-Key` and `api_key` are both `xapikey`. */
export function normalise(key: string): string {
	return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Query or fragment parameters whose value is a credential whatever it looks like. */
const SECRET_PARAMETERS = new Set([
	normalise(INVITE_URL_TOKEN_PARAMETER),
	't',
	'k',
	'key',
	'code',
	'secret',
	'invite',
	'invitetoken',
	'auth',
	'session',
	'sig',
	'signature',
	'password',
	'apikey',
	'accesstoken',
	'refreshtoken',
	'sessiontoken',
	'sessionid',
	'jwt',
]);
/** Path segments after which the next segment is an invite's token (`/auth/invites/{token}`). */
const INVITE_SEGMENTS = new Set(['invite', 'invites', 'invitation', 'invitations', 'join', 'i']);

/**
 * A value that can be a token: no spaces, and either long or mixing letters and digits, such as
 * `inv_3f9a…`, a UUID or a base64 string. Plain words (`accept`, `company-payments`) are not.
 */
export function tokenLike(value: string): boolean {
	if (!/^[A-Za-z0-9._~+=%-]+$/.test(value)) return false;
	if (value.length >= 24) return true;
	if (value.length >= 8 && /\d/.test(value) && /[A-Za-z]/.test(value)) return true;
	// Random letters in both cases (`QwErTyUiOp…`), which words and slugs are not.
	return value.length >= 10 && /[a-z].*[A-Z]|[A-Z].*[a-z]/.test(value.slice(1));
}

/**
 * What a token looks like to the model's link rule (outside read r21-data, finding 3): random, as
 * a machine draws it, never a reference people write (`ORD-2026-0042`, `INV20260042`,
 * `PAYROLL-11`). The value (a path segment, a query value) is split on anything but letters and
 * digits into parts, and each part into runs (digits, lower case, upper case, a Capitalised word:
 * `iPhone15` is `i`, `Phone`, `15`). It is a token when it is
 * - a UUID;
 * - 8 letters and digits or more with 3 switches between runs or more (`a1b2c3d4`,
 *   `QwErTyUiOp`), or 12 or more with 2 or more (`x7Kp2mQw9vLr`);
 * - a part of 16 characters or more that is neither digits only nor lower-case letters only
 *   (`JZBPDZMUJWFBJATHJ`), or of 24 or more whatever it holds.
 * A reference (letters, then digits, in a few groups) has at most one switch in a part. A random
 * base64url, hex or upper-case code of 16 characters or more is almost never spared (one in a
 * million drawn: test/unit/data-outside-r21-links.test.ts).
 */
export function tokenByLook(value: string): boolean {
	if (!/^[A-Za-z0-9._~+=%-]+$/.test(value)) return false;
	if (UUID.test(value)) return true;
	const parts = value.split(/[^A-Za-z0-9]+/).filter((part) => part !== '');
	const length = parts.reduce((sum, part) => sum + part.length, 0);
	const switches = parts.reduce((sum, part) => sum + (part.match(RUNS)?.length ?? 1) - 1, 0);
	if (length >= 8 && switches >= 3) return true;
	if (length >= 12 && switches >= 2) return true;
	return parts.some(
		(part) => part.length >= 24 || (part.length >= 16 && !/^(?:\d+|[a-z]+)$/.test(part)),
	);
}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The runs of a part: a Capitalised word, upper case, lower case, digits. */
const RUNS = /[A-Z][a-z]+|[A-Z]+(?![a-z])|[a-z]+|\d+/g;

/**
 * Path words after which the next segment is a secret for the model, whatever it looks like
 * (`/password/reset/K7Q2`, `/verify/Xy12`, `/api/tokens/tk2026`), unless it is a plain word
 * (`/password/reset`, `/auth/callback`): lower-case letters only, shorter than 16.
 */
const SECRET_PATH_WORDS = new Set([
	'token',
	'tokens',
	'key',
	'keys',
	'apikey',
	'apikeys',
	'secret',
	'secrets',
	'sig',
	'signature',
	'reset',
	'password',
	'passwords',
	'auth',
	'code',
	'codes',
	'otp',
	'verify',
	'verification',
	'confirm',
	'confirmation',
	'activate',
	'activation',
	'magic',
	'session',
	'sessions',
]);
function namedByPathWord(previous: string, segment: string): boolean {
	if (!pathWordsOf(decoded(previous)).some(secretPathWord)) return false;
	return !/^[a-z]{1,15}$/.test(decoded(segment));
}
/**
 * A word of a path that names a secret: one of SECRET_PATH_WORDS, or one of 5 letters or more
 * glued to another word of 4 or more before or after it (`resetpassword`, `accesstoken`,
 * `magiclink`, `verifyemail`), not a word that merely starts so (`confirmed`, `sessions`).
 */
function secretPathWord(word: string): boolean {
	if (SECRET_PATH_WORDS.has(word)) return true;
	for (const secret of SECRET_PATH_WORDS) {
		if (secret.length < 5 || word.length - secret.length < 4) continue;
		if (word.startsWith(secret) || word.endsWith(secret)) return true;
	}
	return false;
}
/**
 * The words of a path segment, without case and separators (outside read r22-data, finding 8:
 * `reset_password`, `password-reset`, `resetPassword`, `Reset-Password`): the segment whole
 * (`apikey`, `api-key`), and each word split at a separator or a camelCase step. A path word
 * naming a secret among them names the next segment one (`/reset_password/{token}`,
 * `/magic_link/{token}`).
 */
function pathWordsOf(segment: string): string[] {
	const words = segment
		.replace(/([a-z0-9])([A-Z])/g, '$1 $2')
		.toLowerCase()
		.split(/[^a-z0-9]+/)
		.filter((word) => word !== '');
	return [normalise(segment), ...words];
}

export function decoded(value: string): string {
	try {
		return decodeURIComponent(value);
	} catch {
		return value;
	}
}

/**
 * How a link is read. For the model every token-like path segment is a token; for the user only
 * the one after an invite segment (record IDs in links stay readable). `found` collects what was
 * hidden by where it stands, so that the same token is known by value elsewhere. A segment this
 * run knows as an identifier is never hidden.
 */
export interface LinkReading {
	strong: boolean;
	found?: string[];
	identifiers?: ReadonlySet<string>;
}

/**
 * A transaction's hash (64 hex digits, maybe after `0x`), as block explorers link to it
 * (`tronscan.org/#/transaction/…`, `etherscan.io/tx/0x…`): public, never taken for a token by its
 * look (outside read r14-data, finding 9). After an invite segment, or as a parameter named a
 * secret, it is hidden all the same.
 */
function txHash(value: string): boolean {
	return /^(?:0x)?[0-9a-fA-F]{64}$/.test(value);
}

/** The path part of a link with its token segments hidden. */
function maskPath(path: string, reading: LinkReading): string {
	const segments = path.split('/');
	return segments
		.map((segment, index) => {
			if (segment === '') return segment;
			// A segment's matrix parameters (`;jsessionid=…`; outside read r22-data, finding 8) are
			// read as a query's parameters are; the segment is what stands before them.
			const semicolon = segment.indexOf(';');
			const own = semicolon < 0 ? segment : segment.slice(0, semicolon);
			const parameters =
				semicolon < 0 ? '' : `;${maskParameters(segment.slice(semicolon + 1), reading, ';')}`;
			const previous = index > 0 ? segments[index - 1].split(';')[0] : undefined;
			return maskSegment(own, previous, reading) + parameters;
		})
		.join('/');
}

/**
 * One path segment, hidden where it is a token: after an invite segment for every reader; for
 * the model, after a path word naming a secret or by its look. A segment holding `:` is judged by
 * its parts too (a Telegram bot's `bot7012345678:AAHdq…`; outside read r22-data, finding 8): a
 * part that is a token by its look hides the segment whole.
 */
function maskSegment(segment: string, previous: string | undefined, reading: LinkReading): string {
	if (segment === '') return segment;
	const after = previous !== undefined && INVITE_SEGMENTS.has(previous.toLowerCase());
	const byWord = previous !== undefined && namedByPathWord(previous, segment);
	const parts = segment.includes(':') ? segment.split(':') : [segment];
	// A chain's address after a payment URI's scheme (`tron:T…`, `ethereum:0x…`) is public.
	const byLook = parts.some(
		(part) =>
			tokenByLook(part) &&
			!txHash(part) &&
			!(parts.length > 1 && chainAddress(decoded(part))) &&
			!reading.identifiers?.has(decoded(part)),
	);
	if (!(after || (reading.strong && (byWord || byLook)))) return segment;
	if (!after && reading.identifiers?.has(decoded(segment))) return segment;
	// Only a segment named a token by where it stands is learned: an ID is not a secret.
	if (after) reading.found?.push(segment, decoded(segment));
	return HIDDEN_PART;
}

/**
 * Query parameters that hold card data whatever their value looks like: a CVV or CVC, a PIN, a
 * card number (outside read r6-data-b, finding 7: `?cvv=123`).
 */
const CARD_PARAMETER = /cvv|cvc|securitycode|^(?:card)?pin(?:code)?$|^pan$|cardnumber|fullpan/;

/** A card number in a part of a link (a path segment, a query value): its last four only. */
function maskCardRuns(text: string, identifiers?: ReadonlySet<string>): string {
	return text.replace(CARD_DIGITS, (match) =>
		cardLike(match) && !isIdentifier(match, identifiers ?? new Set())
			? maskRequisite(match)
			: match,
	);
}

/**
 * A link or a query URL-encoded (once or twice) inside a parameter's value (`next=%2Fconfirm%3Fpin
 * %3D4821`; outside read r14-data, finding 6): read as the link it encodes, and written back
 * encoded as it was, its secrets hidden. Undefined where it holds none.
 */
function maskNestedLink(value: string, reading: LinkReading): string | undefined {
	let inner = value;
	let times = 0;
	while (times < 2 && !inner.includes('=') && /%[0-9A-Fa-f]{2}/.test(inner)) {
		const next = decoded(inner);
		if (next === inner) break;
		inner = next;
		times++;
	}
	if (times === 0 || !inner.includes('=')) return undefined;
	const masked = maskLink(inner, reading);
	if (masked === inner) return undefined;
	let out = masked;
	for (let n = 0; n < times; n++) out = encodeURIComponent(out);
	return out;
}

/**
 * A parameter named as a credential by a word of its name (outside read r15-data, finding 7: a
 * name that only contains one, `design`, `author`, `preferred`, `keyword`, is no credential's).
 * The name is split on `_`, `-`, `.` and camelCase; a part that is such a word, or one written
 * glued to the word it qualifies (`authtoken`, `apikey`, `webhooksecret`, `hmacsig`), names one.
 * `ref` stays such a word: a join link's `ref` may carry the invite's token.
 */
const SECRET_NAME_PART =
	/^(?:tokens?|invite|code|secrets?|keys?|auth|authorization|sig|signature|ref|hmac|pass|password|pwd)$|(?:token|secret|signature|password|apikey|sessionid|sessid)$|^(?:api|access|private|signing|secret|client|session|refresh|hmac|auth|webhook)(?:key|sig)$|^(?:invite|auth|ref)(?:code|id)$/;
function secretNameParts(name: string): boolean {
	return decoded(name)
		.replace(/([a-z0-9])([A-Z])/g, '$1 $2')
		.toLowerCase()
		.split(/[^a-z0-9]+/)
		.some((part) => SECRET_NAME_PART.test(part));
}

/**
 * A `&` that starts the next `name=` pair of a query: a `&` inside a value (a password's
 * `Tr0ub4dor&3x`) does not end it, nor base64's `==` padding (outside read r22-data, finding 6).
 */
const PAIR_AMPERSAND = /&(?=[^&=]+=(?!=))/;

/** `a=1&token=…` with every credential value hidden (`;` pairs too: a path's matrix parameters). */
function maskParameters(text: string, reading: LinkReading, separator = '&'): string {
	return text
		.split(separator === '&' ? PAIR_AMPERSAND : separator)
		.map((pair) => {
			const at = pair.indexOf('=');
			if (at < 0) return pair;
			const name = pair.slice(0, at);
			const value = pair.slice(at + 1);
			const named = normalise(name);
			const byName =
				SECRET_PARAMETERS.has(named) || CARD_PARAMETER.test(named) || secretNameParts(name);
			// For the user an ID in a query (`?orderId=…`) stays; for the model any token-like value goes.
			const byLook =
				reading.strong &&
				tokenByLook(decoded(value)) &&
				!txHash(decoded(value)) &&
				!reading.identifiers?.has(decoded(value));
			const secret =
				value !== '' &&
				(byName || byLook) &&
				!knownCryptoToken(name, decoded(value), reading.identifiers);
			if (!secret)
				return `${name}=${maskNestedLink(value, reading) ?? maskCardRuns(value, reading.identifiers)}`;
			// Learned only when its name says it is a credential, not for a look or a loose name.
			if (SECRET_PARAMETERS.has(named) || /token|secret|invite/.test(named)) {
				reading.found?.push(value, decoded(value));
			}
			return `${name}=${HIDDEN_PART}`;
		})
		.join(separator);
}

/** A link or a path with the tokens in its path, query and fragment hidden. */
export function maskLink(whole: string, reading: LinkReading): string {
	const link = withoutUserinfo(whole);
	const hashAt = link.indexOf('#');
	const beforeHash = hashAt < 0 ? link : link.slice(0, hashAt);
	const fragment = hashAt < 0 ? undefined : link.slice(hashAt + 1);
	const queryAt = beforeHash.indexOf('?');
	const pathPart = queryAt < 0 ? beforeHash : beforeHash.slice(0, queryAt);
	const query = queryAt < 0 ? undefined : beforeHash.slice(queryAt + 1);
	// The host stays as it is: only what follows it can carry a token.
	const scheme =
		/^(?:[a-z][a-z0-9+.-]*:\/\/[^/]*|www\.[^/]*|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?=\/|$))/i.exec(
			pathPart,
		)?.[0] ?? '';
	// A card number in the path (`/cards/4111…/details`) keeps its last four digits.
	let out =
		scheme + maskCardRuns(maskPath(pathPart.slice(scheme.length), reading), reading.identifiers);
	if (query !== undefined) out += `?${maskParameters(query, reading)}`;
	if (fragment !== undefined) {
		// A fragment is read both ways: `#token=…` and `#/invite/…`.
		const fragmentQueryAt = fragment.indexOf('?');
		const head = fragmentQueryAt < 0 ? fragment : fragment.slice(0, fragmentQueryAt);
		const tail = fragmentQueryAt < 0 ? undefined : fragment.slice(fragmentQueryAt + 1);
		out += `#${head.includes('=') ? maskParameters(head, reading) : maskPath(head, reading)}`;
		if (tail !== undefined) out += `?${maskParameters(tail, reading)}`;
	}
	return out;
}

/**
 * The user and password of a link (`http://ops:PASS@staging…`, a service behind Basic auth),
 * also with its slashes JSON-escaped (`http:\/\/ops:PASS@…`) or percent-encoded: never shown,
 * whatever the reader. Everything up to the last `@` before the host's end goes, also where a
 * part of it was masked already by its value (`http://user:[hidden from the AI model]@…`: the
 * password is the credential's, found first; outside read r9-data, finding 1).
 */
const USERINFO =
	/(\b[a-z][a-z0-9+.-]*:(?:\\{0,3}\/|%2[Ff]){2})(?:[^\s/?#@"'<>`\\]|\[hidden from the AI model\]|\\.)*@/gi;

/** A text or a link with every link's user and password hidden. */
export function withoutUserinfo(text: string): string {
	if (!text.includes('@')) return text;
	return text.replace(USERINFO, (_match, scheme: string) => `${scheme}${HIDDEN_PART}@`);
}

/**
 * Links with a scheme, `www.` links, host names followed by a path or query
 * (`pay.example.com/invite/…`) and absolute paths (`/auth/invites/…`) in a text.
 */
export const LINK =
	/(?:\b[a-z][a-z0-9+.-]*:\/\/|\bwww\.|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?=[/?#])|(?<![\w.~%-])\/(?=[\w.~%-]))[^\s"'<>`\\[\]]*/gi;
/**
 * Where a value in a text ends for a word that names it (outside read r22-data, finding 6:
 * `password: 4Gh*7Jk&9Lm`, `token: Ab12/Cd34+Ef56==` showed `&9Lm`, `+Ef56==`): at white space,
 * a quote (the end of a quoted value, also JSON-escaped: `\"`), an escaped line end (`\n`), or a
 * `&` or `;` that starts the next `name=` pair (`password=abc&user=bob`). A `&`, `+`, `/`, `,` or
 * `=` padding inside is the value's.
 */
const VALUE_CHARS = `(?:[^\\s"'&;\\\\]|[&;](?![A-Za-z_][\\w.\\[\\]-]*=[^=\\s"'])|\\\\(?!["'nrt]))+`;
/** `token=…`, `api_key: "…"`, `password = …` written in a text. */
const NAMED_SECRET = new RegExp(
	`\\b((?:invite[_ -]?|session[_ -]?|access[_ -]?|refresh[_ -]?|auth[_ -]?)?token|api[_ -]?key|x-api-key|secret|password)(\\\\?["']?\\s*[:=]\\s*\\\\?["']?)(${VALUE_CHARS})`,
	'gi',
);
/**
 * A Bearer or Basic credential. Not a challenge's parameter (outside read r17-data, finding 6:
 * `WWW-Authenticate: Bearer realm="api"` names the realm, and `error=`, `scope=` the rest): a
 * parameter's name and `=` are no token.
 */
const BEARER =
	/\b(Bearer|Basic)\s+(?!(?:realm|scope|error|error_description|error_uri|charset|resource_metadata|nonce|algorithm|qop|opaque|domain|stale)\s*=)[A-Za-z0-9._~+/=-]{6,}/g;
const JWT = /\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
const WEBHOOK_SECRET = /\bwhsec_[A-Za-z0-9]{8,}/g;
/**
 * Key and invite-token shapes (`sk_…`, `inv_…`): random, so letters and digits mixed, or long.
 * An invoice number such as `inv_20261142` is neither.
 */
const KEY_SHAPES = /\b(?:sk|rk|ak|pk|inv)_[A-Za-z0-9_-]{8,}/g;
/**
 * Lower-case keys with a key's prefix (`uk_9c2e…`, `sess_4b8d…`, `mk_7f3a…`, `cs_…`, `rt_…`):
 * 16 or more letters and digits, both mixed (outside read r6-data-b, finding 4). Bare hex of
 * any length is not read as a key in a text (tx hashes and record IDs look the same); a field
 * named like a key is masked by its name whatever it holds.
 */
const LOWER_KEY =
	/\b(?:mk|uk|sess|session|key|cs|rt|tok|secret)_(?=[a-z0-9]*[a-z])(?=[a-z0-9]*\d)[a-z0-9]{16,}\b/g;
/**
 * Any other prefixed key (`mbr_Q1w2E3r4…`, `mk_live_…`): a short lower-case prefix, then 16 or
 * more characters mixing upper case, lower case and digits, as random keys do. An ID of words
 * and digits (`order_20261142`, `usr_7d3c2b1a…` in hex) has no such mix.
 */
const PREFIXED_KEY =
	/\b[a-z]{2,8}(?:_[a-z]{2,8})?_(?=[A-Za-z0-9]*[A-Z])(?=[A-Za-z0-9]*[a-z])(?=[A-Za-z0-9]*\d)[A-Za-z0-9]{16,}\b/g;
/**
 * Prefixes that name a record, not a key (outside read r19-data, finding 14: `pi_3Mtw…` a payment
 * intent, `evt_…` an event, `cus_…` a customer, also a customer's own external ID in a text):
 * such an ID keeps every character, as identifiers do (choice textSecrets). A key's prefixes
 * (`sk_`, `rk_`, `pk_`, `whsec_`, `mk_`, `mbr_`…), a `…_live_…`/`…_test_…` marker and a record's
 * client secret (`pi_…_secret_…`: CLIENT_SECRET) stay hidden.
 */
const RECORD_ID = /^(?:pi|pm|py|ch|re|in|evt|cus|txn|ord|req|po|acct|sub|prod|price)_[A-Za-z0-9]+$/;
function recordId(match: string): boolean {
	return RECORD_ID.test(match);
}
/** A record's client secret (`pi_3Mtw…_secret_YrKJ…`): the record's ID with a secret glued on. */
const CLIENT_SECRET = /\b[a-z]{2,8}_[A-Za-z0-9]{8,}_secret_[A-Za-z0-9]{8,}/g;
function randomPart(match: string): boolean {
	const body = match.slice(match.indexOf('_') + 1);
	return body.length >= 20 || (/\d/.test(body) && /[A-Za-z]/.test(body));
}
/**
 * The words a sentence puts between a PIN or CVV word and the value it names: verbs of being and
 * setting, articles, pronouns, prepositions of belonging, the card and its side, `number`, `code`
 * (English and Russian, the document's two languages). Nothing that names another number.
 */
const NAMING_WORDS = (
	'is was are were be will would has have been now here set changed updated to of for ' +
	'from on the a an your you my our its it this that new current temporary default ' +
	'initial card cards number code no num nr value digits need needs enter use type ' +
	'reads printed back reverse side as follows below please sent issued assigned generated ' +
	'created given chosen requested entered incorrect invalid wrong which by via sms email ' +
	'mail me us ' +
	'карты карта карте картой карточки вашей вашего ваш ваша вашу вам твоей твой твоя от ' +
	'для к на по код кода номер новый новая новой текущий временный это был была будет ' +
	'есть равен такой следующий сейчас изменён изменен установлен введите используйте ' +
	'нужен обратной стороне отправлен отправлена выдан назначен сгенерирован вы вас который ' +
	'которую запросили входа в смс неверный'
)
	.split(' ')
	.join('|');
/**
 * What may stand between those words: spaces, `:`, `=`, dashes, quotes, a comma (`PIN, which you
 * requested, is …`). Not `;`, a bracket or a sentence's end.
 */
const NAMING_GAP = '[\\s\\u00a0:=,\\-\\u2010-\\u2015"\'«»“”„]';
/**
 * A Han ideograph (CJK Unified Ideographs, Extension A, Compatibility Ideographs), written as
 * ranges of the Basic Multilingual Plane so that it reads the same in a regular expression with
 * or without the `u` flag.
 */
const HAN = '[\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff]';
/**
 * Han characters that go on after a CJK unit without making a word with it: the quantity goes on
 * (`3 个月`, three months; `3 次后`, after three times; `300元以内`, up to 300 yuan; `2025年到期`,
 * due in 2025): after, before, within, from, until, of, more, whole, period.
 */
const QUANTITY_GOES_ON = '[后後前内內以左起至到的了月多整间間之]';
/**
 * After digits, what makes them a quantity and not a PIN or CVV: a currency or a unit
 * (`1500 RUB`, `12 %`, `1000 attempts`, `3 раз`, `1000 грн`: r19-data, finding 4; `1500 р.`,
 * `1500 шт.`, `123 pcs`, `1500 unidades`, `300元`, `2025年`: r20-data, finding 4; a CJK unit only
 * where no Han ideograph follows it, after spaces or none, but one that says the quantity goes on
 * (QUANTITY_GOES_ON: `3 个月`, `2 次后`), and `年` after a year of 19xx or 20xx whatever follows
 * (`2025年到期`, `2026 年底`): `4821 次日生效`, `739 个人专用`, `482193 年底前有效` start the
 * next word (the next day, personal, the year's end) and are no unit, while `3 次，`, `2026 年`,
 * `300元。`, `1500円です` are: r22-data, finding 4), and a year's
 * `г.` or `года` after a year of 19xx or 20xx only (`г. Москва` after any other number is a
 * city's mark, not a unit).
 */
const NOT_A_SECRET_AFTER =
	'[\\s\\u00a0]?(?:%|₽|\\$|€|[年元円个個张張件次](?![\\s\\u00a0]*(?!' +
	QUANTITY_GOES_ON +
	')' +
	HAN +
	')|(?<=(?<![0-9])(?:19|20)[0-9][0-9][\\s\\u00a0]?)年|(?:rub|rur|usd|usdt|eur|euros?|uah|gbp|chf|cny|kzt|btc|eth|trx|руб|рублей|рубля|р(?!/)|грн|гривень|гривні|гривня|тенге|attempts?|times|tries|cards|items|records|days?|hours?|minutes?|mins?|seconds?|secs?|ms|раза?|попыток|попытки|дней|часов|минут|секунд|pcs|pieces?|units?|unidades?|uds|st(?:ü|ue)ck|stk|pi[èe]ces?|шт|штук[аи]?|(?<=(?<![0-9])(?:19|20)[0-9][0-9][\\s\\u00a0]?)(?:г|года?))(?![A-Za-zА-Яа-яЁё0-9]))';
/**
 * What may stand between a PIN or CVV word and its value in the direct forms (`PIN: 1234`,
 * `"cardPin":"4829"`, `CVV2 - 739`): up to 6 characters that are no letter or digit, and no
 * currency sign, number sign or line break (`PIN, $1500`, `CVV #123` are other numbers); a space
 * or a colon also written as an HTML entity (`CVV&nbsp;583`) or URL-encoded (`cvv%3A583`; outside
 * read r17-data, finding 2), each counted as one. A `%` that starts a percent-escape is the
 * escape's (`PIN%204829`: `%20`, then `4829`; not `%`, then `204829`).
 */
const DIRECT_GAP =
	'((?:[^A-Za-zА-Яа-яЁё0-9_$€£₽#№+%\\n\\r]|%(?![0-9A-Fa-f]{2})|&(?:nbsp|ensp|emsp|thinsp|colon|equals|#160|#58|#61|#[xX](?:[aA]0|3[aAdD]));|%(?:25)?(?:3[aAdD]|20|[cC]2%(?:25)?[aA]0)){0,6})';
/** After a direct form's digits: not a date's or a time's rest (`PIN: 2026-11-20`), not a unit. */
const DIRECT_END = `(?![.,:/\\-]\\d)(?!${NOT_A_SECRET_AFTER})`;
/**
 * A PIN's digits: 4 to 8 in one run, one by one with a space, dot or dash between, or in pairs
 * with a space between (`PIN: 48 21`; outside read r17-data, finding 2); not part of a longer
 * number.
 */
const PIN_DIGITS =
	'\\d{4,8}(?!\\d)|\\d(?:[ \\u00a0.-]\\d){3,7}(?!\\d|[ \\u00a0.-]\\d)|\\d\\d(?:[ \\u00a0]\\d\\d){1,3}(?!\\d|[ \\u00a0.-]\\d)';
/**
 * A PIN named in a text: `PIN: 482913`, `pin=4829`, `card PIN 4829 rejected`, `pinCode 1234`,
 * `"cardPin":"4829"` (outside read r5-data, finding 1). `pin` stands as a word or after `card`, so
 * `spin 2024` or `pinned 12345` are no PIN; 4 to 8 digits, not part of a longer number.
 */
const PIN_IN_TEXT = new RegExp(
	`(?<![A-Za-z])((?:card[_ -]?)?pin(?:[_ -]?code)?(?:\\s+(?:is|was|code|number|(?:no|nr|num)\\.?))?)${DIRECT_GAP}(${PIN_DIGITS})${DIRECT_END}`,
	'gi',
);
/**
 * A key marked live or test (`mk_live_9f8e…`, `sk_test_…`): a live/test marker is what a key
 * carries and an ID does not, whatever case its random part has.
 */
const LIVE_KEY = /\b[a-z]{2,8}_(?:live|test|prod|sandbox)_[A-Za-z0-9]{12,}\b/g;
/** A key named in words then a space: `member key mk_9f8e…`, `api key 3F9a…` (long, with digits). */
const KEY_IN_WORDS =
	/\b((?:member|api|secret|access|private|signing|webhook|company)[ _-]?key)(\s+)([A-Za-z0-9._~+/=-]{16,})/gi;
/**
 * A CVV named in a text: `CVV 123`, `cvc: 1234`, `"cardCvv":"123"` (also JSON-escaped), and in
 * Russian text (outside read r7-data, finding 4): `CVV-код карты: 123`, `код CVC 987`, also with a
 * Cyrillic `С` in place of the Latin `C`.
 */
const CVV_IN_TEXT = new RegExp(
	`((?:[CcСс][Vv][VvCcСс]2?|(?<![A-Za-z])(?<!(?<!\\\\)[A-Za-z]\\d+)(?:[Cc][Vv]2|[Cc][Cc][Vv]2?))(?:[-\\s]?код)?(?:\\s+карты)?|security code|код безопасности)${DIRECT_GAP}(\\d{3,4}(?!\\d)|\\d(?:[ \\u00a0.-]\\d){2,3}(?!\\d|[ \\u00a0.-]\\d))${DIRECT_END}`,
	'gi',
);
/** A letter, Latin or Cyrillic: what may not stand right before a named secret's word. */
const LETTER = '[A-Za-zА-Яа-яЁё]';
/**
 * A PIN named in Russian (the document writes the service's messages in Russian; outside read
 * r7-data, finding 4): `ПИН 4321`, `ПИН-код 4321`, `пин-код: 4321`, `ПИН карты: 4321`. Read
 * without case, as the English forms are: a unit after the digits (DIRECT_END) is written in any
 * case (`ПИН-код 1000 RUB` is an amount; it was hidden while `руб` was not).
 */
const RU_PIN_IN_TEXT = new RegExp(
	`(?<!${LETTER})((?:ПИН|пин|Пин)(?:[-\\s]?(?:код|КОД|Код))?(?:\\s+(?:карты|КАРТЫ))?)${DIRECT_GAP}(${PIN_DIGITS})${DIRECT_END}`,
	'gi',
);
/**
 * A key, password or secret named in Russian: `API-ключ участника: …`, `ключ …`, `пароль: …`,
 * `секрет …`, `токен …`. After `:` or `=` the value goes whatever it is; after a space only a
 * value with a digit and 6 characters or more (`ключ не найден`, `Пароль изменён` stay).
 */
const RU_NAMED_SECRET = new RegExp(
	`(?<!${LETTER})((?:API[-\\s]?)?(?:ключ|Ключ|КЛЮЧ|пароль|Пароль|ПАРОЛЬ|секрет|Секрет|СЕКРЕТ|токен|Токен|ТОКЕН)(?:а|у|ом|е)?(?:\\s+(?:участника|доступа|компании|API|вебхука))?)(\\s*[:=]\\s*["']?|\\s+)([^\\s"',;)]+)`,
	'g',
);
/** A percent-escape, also encoded a second time (`%20`, `%2520`). */
const ESCAPE = '%(?:25)?';
/** A space a text may put between groups: also no-break, figure, thin and narrow no-break. */
const SPACE_CHAR = '[\\s\\u00a0\\u2007\\u2009\\u202f]';
/** The same spaces URL-encoded (`%20`, `+` in a form, `%C2%A0`, `%E2%80%89`…), once or twice. */
const SPACE_ENCODED = `\\+|${ESCAPE}(?:20|09|C2${ESCAPE}A0|E2${ESCAPE}80${ESCAPE}(?:8[79]|AF))`;
const SPACE = `(?:${SPACE_CHAR}|${SPACE_ENCODED})`;
/** A dot or a dash (also hyphen and en dash), as written or URL-encoded. */
const DASH = `(?:[.\\-\\u2010-\\u2013]|${ESCAPE}(?:2[DE]|E2${ESCAPE}80${ESCAPE}9[0-3]))`;
/**
 * Other separators between a card number's groups: `_`, `/`, `:` (also URL-encoded), and a space
 * written as a JSON escape inside a string (`\u0020`, `\u00a0`, escaped once more).
 */
const OTHER_SEP = `(?:[_/:]|${ESCAPE}(?:2[Ff]|3[Aa]|5[Ff])|\\\\{1,3}u00(?:20|[Aa]0))`;
/**
 * A separator a text may put between the groups of a card number: a space or a dot or a dash,
 * each alone or a dash between spaces, as written or URL-encoded (a card number in a link or a
 * form: `4111%201111…`, `4111+1111…`).
 */
const SEP = `(?:${SPACE}?${DASH}${SPACE}?|${SPACE}|${OTHER_SEP})`;
/**
 * The end of a card number's run: no letter, digit or `_` glued to it. A comma or a point and
 * digits after it (`2200150012345671,12/27,123`, `[…,123]`, `card ….5`; outside read r19-data,
 * finding 1) are the next field of a list or a line, not a decimal's part: a run of 13–19 digits
 * that passes the card checksum and is a scheme's (or named a card) is no amount's whole part
 * (contract/choices.ts `cardSchemes`). A decimal's fraction stays no card (the `(?<!\d[.,])` before).
 */
const CARD_END = '(?![A-Za-z0-9_])';
/**
 * 15–19 digits in one run, or grouped as cards are written (4-4-4-1…7, or 4-6-5) with any of
 * those separators; not part of a longer word (a UUID's last groups are not a card number), but
 * it may follow a percent-escape (`pan%3D4111…`), and not a decimal's fraction (`1.3955…`, outside
 * read r14-data, finding 9: its checksum may pass). A match is a card number when its 13–19 digits
 * pass the card checksum (cardLike). What follows it is CARD_END's.
 */
const CARD_DIGITS = new RegExp(
	`(?<!\\d[.,])(?:(?<=${ESCAPE}[0-9A-Fa-f]{2})|(?<![A-Za-z0-9_-]))(?:\\d{15,19}|\\d{4}${SEP}\\d{4}${SEP}\\d{4}${SEP}\\d{1,7}|\\d{4}${SEP}\\d{6}${SEP}\\d{5}|\\d{8}${SEP}\\d{5,11})${CARD_END}`,
	'gi',
);
/**
 * Two runs of digits joined by one point or comma (`47508211.51758356590`): a decimal, an amount
 * or a rate, not a card number written 8+8 (outside read r14-data, finding 9), whatever its
 * checksum says.
 */
function decimalNumber(match: string): boolean {
	return /^\d+[.,]\d+$/.test(match);
}
/** A mark that says a number was cut short: `…`, `...`, `**`, `xx`. */
const CUT_MARK = '(?:\\s?(?:\\u2026|\\.{2,3}|\\*+|[xX]{2,}))?';
/**
 * Part of a card number in a free text (outside read r7-data, finding 3): 12 to 19 digits in one
 * run, or the first three groups of four (or 4-6 and a part: American Express' and Diners' grouping,
 * so its first group starts with 3; outside read r20-data, finding 5: `1500.123456 USDT`, an amount
 * to USDT's six decimals, was masked) with any separator SEP knows and what follows of the
 * fourth, each maybe followed by a cut mark. Not part of a word, a decimal
 * fraction (`92.123456789012`), a phone (`+…`) or a UUID's group (`-…`); not followed by a
 * decimal part (an amount). Read in free text only.
 */
const CUT_CARD = new RegExp(
	`(?<![A-Za-z0-9_.,+\\-])(?:\\d{12,19}|\\d{4}${SEP}\\d{4}${SEP}\\d{4}(?:${SEP}\\d{1,7})?|3\\d{3}${SEP}\\d{6}(?:${SEP}\\d{1,5})?)(?![A-Za-z0-9_]|[.,]\\d)${CUT_MARK}`,
	'g',
);
/** A cut mark at the end of a CUT_CARD match. */
const CUT_MARK_END = /(?:\u2026|\.{2,3}|\*+|[xX]{2,})$/;
/** Groups of digits that go on after a match, each after one separator SEP knows. */
const GROUPS_AFTER = new RegExp(`^(?:${SEP}\\d+)+`, 'i');
/**
 * A phone's country code or an IBAN's head right before a match (`+49 `, `+`, `DE89 `): the number
 * began before. Not any group of digits: a date or a time before a cut card (`2026-11-29 4276…`)
 * leaves it a card's part.
 */
const GROUP_BEFORE = new RegExp(`(?:\\+(?:\\d{1,4}${SEP})?|(?<![A-Za-z0-9])[A-Z]{2}\\d{2}${SEP})$`);
/** An IBAN as written in a text: country, check digits, then groups of four (and a rest). */
const IBAN_TEXT = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g;
/** Whether an IBAN's check digits hold (ISO 13616: the number moved and read modulo 97 is 1). */
function ibanValid(written: string): boolean {
	const iban = written.replace(/ /g, '');
	if (iban.length < 15 || iban.length > 34) return false;
	let rest = 0;
	for (const char of iban.slice(4) + iban.slice(0, 4)) {
		const value = char >= 'A' ? char.charCodeAt(0) - 55 : Number(char);
		rest = (rest * (value > 9 ? 100 : 10) + value) % 97;
	}
	return rest === 1;
}
/** Whether `whole` from `start` to `end` lies inside an IBAN that passes its check. */
function inIban(whole: string, start: number, end: number): boolean {
	const from = Math.max(0, start - 40);
	const near = whole.slice(from, end + 40);
	for (const found of near.matchAll(IBAN_TEXT)) {
		const at = from + (found.index ?? 0);
		if (at <= start && at + found[0].length >= end && ibanValid(found[0])) return true;
	}
	return false;
}
/**
 * Whether a CUT_CARD match, neither cut short by a mark nor after a card word, is an ordinary
 * grouped number and not part of a card (outside read r19-data, finding 6: an IBAN, a phone, an
 * account, an order number). Its digits with the groups that go on after it (same separator)
 * are a card when a scheme's and passing the checksum; else ordinary: more than 19 digits (no card
 * has them), fewer than 12, a phone's country code or an IBAN's head right before it
 * (GROUP_BEFORE), inside an IBAN passing its check, no card scheme's leading digits, or a length a
 * scheme issues that fails the checksum (CARD_SCHEMES: a whole card number, not a part). A number
 * shorter than its scheme's numbers (`4276 3800 1234 567`, 15 of a Visa's 16) is part of a card.
 */
function ordinaryGroups(match: string, offset: number, whole: string): boolean {
	const end = offset + match.length;
	const gap = /\D+/.exec(match)?.[0];
	let written = match;
	const after = GROUPS_AFTER.exec(whole.slice(end))?.[0];
	if (
		after &&
		gap &&
		/\d{4}$/.test(match) &&
		after.split(/\d+/).every((g) => g === '' || g === gap)
	) {
		written += after;
	}
	const digits = cardDigits(written);
	if (schemeCard(digits)) return false;
	if (digits.length > 19 || cardDigits(match).length < 12) return true;
	if (GROUP_BEFORE.test(whole.slice(Math.max(0, offset - 24), offset))) return true;
	if (inIban(whole, offset, end)) return true;
	const lengths = CARD_SCHEMES.filter(({ from, to }) => {
		const lead = Number(digits.slice(0, String(from).length));
		return lead >= from && lead <= to;
	}).flatMap((scheme) => scheme.lengths);
	if (lengths.length === 0) return true;
	return lengths.includes(digits.length) || digits.length > Math.max(...lengths);
}

/**
 * A word before a number that says it is a card's: card, PAN, карта / карты / карте, номер; then
 * only naming words and gaps (NAMING_WORDS: `card number is`, `номер карты:`) up to the number.
 * A word that names another number between (`card declined, request id 1234…`, `card payment RRN
 * 1234…`, `номер заказа 1234…`; issue 50) gives the number to that word; `company` is no `pan`.
 */
const CARD_WORD = new RegExp(
	`(?<![\\p{L}\\p{N}_])(?:cards?|card[-_]?(?:number|num|no)|pan|карт\\p{L}{0,2}|номер\\p{L}{0,2})(?![\\p{L}\\p{N}])(?:${NAMING_GAP}|(?:${NAMING_WORDS}|pan)(?![\\p{L}\\p{N}])){0,12}$`,
	'iu',
);
/** 13 digits from 1e12 to 4e12 standing alone: a time in milliseconds (2001–2096), not a card. */
function epochMilliseconds(match: string): boolean {
	return /^[1-3]\d{12}$/.test(match);
}
/** Digits of a list entry (a number or a text of digits), else undefined. */
function entryDigits(entry: unknown): string | undefined {
	if (typeof entry === 'number' && Number.isSafeInteger(entry) && entry >= 0) return String(entry);
	if (typeof entry === 'string' && /^\d{1,7}$/.test(entry.trim())) return entry.trim();
	return undefined;
}
/**
 * A list that writes a card number as its groups (`[4276,3800,1234,5679]`, outside read r7-data,
 * finding 6): three to six entries of digits, the first three of four digits each (or 4-6), and
 * 12 to 19 digits in all.
 */
export function cardGroupList(values: readonly unknown[]): boolean {
	if (values.length < 3 || values.length > 6) return false;
	const groups = values.map(entryDigits);
	if (groups.some((group) => group === undefined)) return false;
	const digits = groups as string[];
	const lengths = digits.map((group) => group.length);
	const grouped =
		(lengths[0] === 4 && lengths[1] === 4 && lengths[2] === 4) ||
		(lengths[0] === 4 && lengths[1] === 6);
	const total = digits.join('').length;
	return grouped && total >= 12 && total <= 19;
}
/** Such a list with every group but the last hidden, and the last cut to its last four digits. */
export function maskCardGroupList(values: readonly unknown[]): unknown[] {
	return values.map((entry, index) => {
		if (index < values.length - 1) return '••••';
		const digits = entryDigits(entry) as string;
		return digits.length <= 4 ? entry : maskRequisite(digits);
	});
}

/**
 * A number the model is never given in a text: a phone or card requisite (10 digits or more)
 * that stands as a number, bounded by what is not a letter or a digit. Not a decimal's fraction
 * (`51.4833240611`, `12,3456789012`: after a whole part of 1 to 9 digits and a point or comma;
 * outside read r14-data, finding 9): an amount or a rate is no requisite. A list of phones
 * (`79001234567,79001234568`) is not read as a decimal: its whole part is too long. A run of digits inside a
 * word (a tx hash, any hex identifier) is not a number; nor is a group of a word joined by dashes
 * whose letters are all hex digits (a UUID's last group).
 */
const LONG_NUMBER = /(?<![A-Za-z0-9_]|(?<![\d.,])\d{1,9}[.,])\+?\d{10,}(?![A-Za-z0-9_])/g;
function inHexWord(text: string, start: number, end: number): boolean {
	if (text[start - 1] !== '-' && text[end] !== '-') return false;
	let from = start;
	while (from > 0 && /[A-Za-z0-9_-]/.test(text[from - 1])) from--;
	let to = end;
	while (to < text.length && /[A-Za-z0-9_-]/.test(text[to])) to++;
	const word = text.slice(from, to);
	// A UUID whose groups happen to be digits only (`00000000-0000-1000-8000-000000000000`, an
	// Idempotency-Key the service echoes) is a UUID all the same (found by the r17 generator).
	if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(word)) return true;
	return /[A-Za-z]/.test(word) && !/[G-Zg-z_]/.test(word);
}

/** The digits of a card number as written: percent-escapes (encoded separators) dropped first. */
function cardDigits(match: string): string {
	return match
		.replace(/\\+u[0-9a-f]{4}/gi, '')
		.replace(/%(?:25)?[0-9a-f]{2}/gi, '')
		.replace(/\D/g, '');
}

/** Full-width digits (`４１１１…`), as some keyboards and services write them. */
const FULL_WIDTH_DIGITS = /[\uff10-\uff19][\uff10-\uff19\s\u3000-]{11,}[\uff10-\uff19]/g;
/** A base64 word that may carry a card number (13–19 digits encode to 20–28 characters). */
const BASE64_WORD = /(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/]{18,28}={0,2}(?![A-Za-z0-9+/=_-])/g;

/**
 * A longer encoded word (outside read r15-data, finding 5: a card's data as base64 of
 * `{"pan":…,"cvv":…}`, a card number as hex text): base64 (standard or URL-safe) of more than 28
 * characters, or hex of an even length from 26 characters (13 bytes). Up to ENCODED_LIMIT
 * characters: a longer word is not decoded (the work stays bounded).
 */
export const ENCODED_LIMIT = 8192;
const LONG_BASE64_WORD = /(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{29,}={0,2}(?![A-Za-z0-9+/=_-])/g;
const HEX_WORD = /(?<![A-Za-z0-9_])(?:[0-9a-fA-F]{2}){13,}(?![A-Za-z0-9_])/g;
/** Text that reads as text: valid UTF-8 with no control character but tab and line ends. */
function printableText(bytes: Buffer): string | undefined {
	const text = bytes.toString('utf8');
	if (text.includes('\ufffd')) return undefined;
	if (text.length === 0) return undefined;
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f) {
			return undefined;
		}
	}
	return text;
}
/** The text of a number of 13–19 digits, maybe grouped by spaces or dashes. */
const ENCODED_CARD_LENGTH = /^(?=(?:[\s-]*\d){13,19}[\s-]*$)\s*\d[\d\s-]*$/;
/** The printable text an encoded word holds (base64 or hex), else undefined. */
function decodedWord(word: string, hex: boolean): string | undefined {
	if (word.length > ENCODED_LIMIT) return undefined;
	if (hex) return printableText(Buffer.from(word, 'hex'));
	const core = word.replace(/=+$/, '');
	if (core.length % 4 === 1) return undefined;
	return printableText(Buffer.from(core.replace(/-/g, '+').replace(/_/g, '/'), 'base64'));
}

/** A card number written with full-width digits, or in base64: its digits, else undefined. */
function encodedCard(match: string): string | undefined {
	let digits = match;
	if (/[\uff10-\uff19]/.test(match)) {
		digits = match.replace(/[\uff10-\uff19]/g, (d) => String(d.charCodeAt(0) - 0xff10));
	} else {
		digits = Buffer.from(match, 'base64').toString('latin1');
		if (!/^[\d\s-]+$/.test(digits)) return undefined;
	}
	digits = digits.replace(/\D/g, '');
	return schemeCard(digits) ? digits : undefined;
}

export function luhn(digits: string): boolean {
	let sum = 0;
	for (let index = 0; index < digits.length; index++) {
		let digit = Number(digits[digits.length - 1 - index]);
		if (index % 2 === 1) {
			digit *= 2;
			if (digit > 9) digit -= 9;
		}
		sum += digit;
	}
	return sum % 10 === 0;
}

/**
 * The card schemes a number is read against where nothing names it a card (contract/choices.ts
 * `cardSchemes`; outside read r17-data, finding 4: an OGRN `1027700132196`, an OGRNIP
 * `304774600100021` or an account passing the checksum is no card). Each row: the first digits
 * (a range of prefixes of one length) and the lengths the scheme issues. Written from the schemes'
 * published IIN ranges; where two lists differ the wider one is taken (a card hidden by mistake
 * costs less than one shown), but for Diners, whose 15-digit numbers no issuer gives out (an OGRNIP
 * of 2000–2009 starts 30 and has 15).
 */
export const CARD_SCHEMES: ReadonlyArray<{
	scheme: string;
	from: number;
	to: number;
	lengths: readonly number[];
}> = [
	{ scheme: 'Visa', from: 4, to: 4, lengths: [13, 16, 19] },
	{ scheme: 'Mastercard', from: 51, to: 55, lengths: [16] },
	{ scheme: 'Mastercard', from: 2221, to: 2720, lengths: [16] },
	{ scheme: 'Mir', from: 2200, to: 2204, lengths: [16, 17, 18, 19] },
	{ scheme: 'American Express', from: 34, to: 34, lengths: [15] },
	{ scheme: 'American Express', from: 37, to: 37, lengths: [15] },
	{ scheme: 'Diners Club', from: 300, to: 305, lengths: [14, 16, 17, 18, 19] },
	{ scheme: 'Diners Club', from: 3095, to: 3095, lengths: [14, 16, 17, 18, 19] },
	{ scheme: 'Diners Club', from: 36, to: 36, lengths: [14, 15, 16, 17, 18, 19] },
	{ scheme: 'Diners Club', from: 38, to: 39, lengths: [14, 16, 17, 18, 19] },
	{ scheme: 'JCB', from: 3528, to: 3589, lengths: [16, 17, 18, 19] },
	{ scheme: 'Discover', from: 6011, to: 6011, lengths: [16, 17, 18, 19] },
	{ scheme: 'Discover', from: 644, to: 649, lengths: [16, 17, 18, 19] },
	{ scheme: 'Discover', from: 65, to: 65, lengths: [16, 17, 18, 19] },
	{ scheme: 'UnionPay', from: 62, to: 62, lengths: [16, 17, 18, 19] },
	{ scheme: 'UnionPay', from: 81, to: 81, lengths: [16, 17, 18, 19] },
	{ scheme: 'RuPay', from: 82, to: 82, lengths: [16] },
	{ scheme: 'Maestro', from: 50, to: 50, lengths: [12, 13, 14, 15, 16, 17, 18, 19] },
	{ scheme: 'Maestro', from: 56, to: 69, lengths: [12, 13, 14, 15, 16, 17, 18, 19] },
	{ scheme: 'UATP', from: 1, to: 1, lengths: [15] },
	{ scheme: 'GPN', from: 1946, to: 1946, lengths: [16, 18, 19] },
	{ scheme: 'UzCard', from: 8600, to: 8600, lengths: [16] },
	{ scheme: 'Humo', from: 9860, to: 9860, lengths: [16] },
	{ scheme: 'Troy', from: 9792, to: 9792, lengths: [16] },
	{ scheme: 'BelCard', from: 9112, to: 9112, lengths: [16] },
	{ scheme: 'ArCa', from: 9051, to: 9051, lengths: [16] },
	{ scheme: 'Elcart', from: 9417, to: 9417, lengths: [16] },
	{ scheme: 'Korti Milli', from: 9762, to: 9762, lengths: [16] },
];

/** Whether 12–19 digits have a length and leading digits some card scheme issues (CARD_SCHEMES). */
export function schemeFits(digits: string): boolean {
	return CARD_SCHEMES.some(({ from, to, lengths }) => {
		if (!lengths.includes(digits.length)) return false;
		const lead = Number(digits.slice(0, String(from).length));
		return lead >= from && lead <= to;
	});
}

/** A card number by its look alone: a scheme's length and leading digits, and the checksum. */
export function schemeCard(digits: string): boolean {
	return /^\d{13,19}$/.test(digits) && luhn(digits) && schemeFits(digits);
}

/** A card number found in a text with nothing naming it: a scheme's number (schemeCard). */
export function cardLike(match: string): boolean {
	return schemeCard(cardDigits(match));
}

/** A card word glued to the number (`card4111…`, `card_4111…`, `карта-4111…`, `pan:`). */
const CARD_GLUED = /(?:card|pan|карт\p{L}{0,2})[_-]?$/iu;
/**
 * A word before a number that names it a registry's or an account's (outside read r17-data,
 * finding 4): ОГРН, ОГРНИП, ИНН, КПП, БИК, ОКПО, ОКТМО, ОКАТО, СНИЛС, р/с, к/с, л/с, счёт, and the
 * Latin spellings, also two joined by `/` (`ИНН/КПП`); then only gaps (`:`, `№`, `=`, spaces).
 * The word (group 1) says the registries its number may be of (contract/records.ts registriesIn).
 */
const REGISTRY_WORD =
	/(?<![\p{L}\p{N}_])((?:огрнип|огрн|инн|кпп|бик|окпо|октмо|окато|снилс|ogrnip|ogrn|inn|kpp|bic|bik|okpo|oktmo|okato|snils|р\/с|к\/с|л\/с|сч[её]т\p{L}{0,2}|лицев\p{L}{0,3}\s+сч[её]т\p{L}{0,2}|persacc|personalacc|correspacc)(?:\s*\/\s*(?:огрнип|огрн|инн|кпп|бик|inn|kpp|bic))?)(?![\p{L}\p{N}])[\s\u00a0:=№#-]{0,4}$/iu;

/**
 * Whether a run of 13–19 digits at `offset` of `whole` is a card number: with the card checksum
 * and either named a card (a card word before it with only naming words between, a field named for
 * a card) or of a card scheme (CARD_SCHEMES), unless a registry's word before it or the field's
 * name makes it that registry's number: of the registry's length and passing the registry's own
 * check (contract/records.ts registryNumber: `ОГРН 1027700132195` is kept, `ОГРН 4276…` of 13
 * digits failing the OGRN's sign and check digit is a Visa; issue 50, fixer dfix23; outside read
 * r18-data, finding 7: `Списано со счёта 4276…` of 16 digits is a card, an account has 20), or the
 * groups it is written in (`written`) are each such a number (`ИНН/КПП 7707083893/770701001`).
 */
function cardAt(
	digits: string,
	whole: string,
	offset: number,
	reading?: CardReading,
	written?: string,
): boolean {
	if (digits.length < 13 || digits.length > 19 || !luhn(digits)) return false;
	const before = whole.slice(Math.max(0, offset - 64), offset);
	if (reading?.cardNamed || CARD_WORD.test(before) || CARD_GLUED.test(before)) return true;
	if (reading?.notCard) return false;
	const word = REGISTRY_WORD.exec(before)?.[1];
	const named = word ? registriesIn(word) : undefined;
	const registries = named ? [...(reading?.registries ?? []), ...named] : reading?.registries;
	if (!registries || registries.length === 0) return schemeFits(digits);
	if (numberOfRegistries(registries, digits)) return false;
	const groups = (written ?? '').split(/\D+/u).filter((group) => group !== '');
	if (groups.length > 1 && groups.every((group) => numberOfRegistries(registries, group))) {
		return false;
	}
	return schemeFits(digits);
}

/** What the field a text stands in says of the numbers in it (contract/records.ts numberName). */
export interface CardReading {
	/** Named for a card (`cardHint`, `card`): any checksum run in it is a card number. */
	cardNamed?: boolean;
	/** A payment code's field of a number of its own (`Contract`, `DocNo`): none is, but after a card word. */
	notCard?: boolean;
	/** Named for a registry's number (`payeeOgrn`, `inn`): none of these registries' numbers is. */
	registries?: readonly Registry[];
}

/**
 * PIN and CVV words of the languages a card holder may write besides Russian and English
 * (outside read r19-data, finding 4), the words their banks print: Ukrainian (ПІН, ПІН-код, код
 * безпеки), German (Geheimzahl, Geheimnummer, Kartenprüfnummer, Sicherheitscode), Spanish (número
 * secreto, clave secreta, código de seguridad), French (code confidentiel, code secret,
 * cryptogramme visuel, code de sécurité). Chinese (密码, 安全码) has no spaces between words:
 * CJK_SECRET_DIGITS reads it. Only a run of digits the word names goes (PIN 4–8, CVV 3–8), as
 * for the English and Russian words: `código postal 28001`, `Bestellnummer 4821` stay.
 * Outside read r20-data, finding 2: German `PIN-Nummer`, `PIN-Nr.`; `NIP` (numéro d'identification
 * personnel, número de identificación personal: the PIN of Canadian French and Mexican Spanish),
 * read in upper case or as `Nip` only (`nip` is an English word; a Polish NIP is a tax number of
 * ten digits, more than a PIN's eight); Spanish `código de verificación`, French `code de
 * vérification` (a card's verification code).
 */
const OTHER_PIN_WORDS =
	'geheimzahl|geheimnummer|pin[-\\s]?(?:nummer|nr\\.?)|nip|n[úu]mero\\s+secreto|clave\\s+secreta|code\\s+confidentiel|code\\s+secret';
const OTHER_CVV_WORDS =
	'код\\s+безпеки|kartenpr(?:ü|ue|u)f(?:nummer|ziffer|code)|sicherheitscode|c[óo]digo\\s+de\\s+seguridad|c[óo]digo\\s+de\\s+verificaci[óo]n|cryptogramme(?:\\s+visuel)?|code\\s+de\\s+s[ée]curit[ée]|code\\s+de\\s+v[ée]rification';
/** The words of those languages that put a PIN or CVV word and its value together (NAMING_WORDS). */
const OTHER_NAMING_WORDS = (
	'ist lautet ihre ihr ihrer neue neuer der die karte es su tu nuevo nueva tarjeta est votre ' +
	'nouveau nouvelle carte de la du le ваш ваша вашої вашого картки новий нова це є'
)
	.split(' ')
	.join('|');
/**
 * The Chinese PIN (密码: a card's or a payment's password, digits only read) and CVV (安全码, a
 * card's verification code 卡验证码) words, in simplified and traditional characters (outside read
 * r20-data, finding 2: `密碼`, `安全碼`, `卡验证码`). A verification code alone (验证码, an SMS
 * code) is no card's: a card's word comes before it.
 */
const CJK_PIN_WORDS = '(?:取款|提款|交易|支付|银行卡|銀行卡|卡)?密[码碼]';
const CJK_CVV_WORDS = '安全[码碼]|(?:信用卡|银行卡|銀行卡|卡片?)(?:验证|驗證)[码碼]';
const CJK_SECRET_DIGITS = new RegExp(
	`(${CJK_PIN_WORDS}|${CJK_CVV_WORDS})([\\s\\u00a0:：=是为為]{0,3})(\\p{Nd}{3,8})(?![\\p{N}]|[.,:/\\-]\\p{N})(?!${NOT_A_SECRET_AFTER})`,
	'giu',
);
/**
 * A PIN or a CVV named in words (outside read r8-data, finding 1): `PIN number is 4829`,
 * `ПИН-код вашей карты: 4829`, `CVV code is 739`, `security code of the card is 739`. The word,
 * then up to 40 characters of the same sentence, then a group of 3 to 8 digits standing alone
 * (a PIN's 4 to 8): the digits go when they are the value the word names, that is when only
 * NAMING_WORDS and NAMING_GAP stand between (issue 50: `pin rejected, HTTP status: 400` showed
 * `HTTP status: •••`). A word that names another number (`status`, `request`, `order`, `amount`,
 * `ending`, `attempts`…) or a clause break (`;`, a bracket) between gives the digits to that
 * word; a unit after them (NOT_A_SECRET_AFTER: `1500 RUB`, `3 attempts`) makes them a quantity.
 * Not across `got` or `must be` either: the node's own refusal of a typed value (`Mask Card Number
 * and CVV must be true or false, got "007"`) shows the user's value.
 */
const PIN_OR_CVV_WORD = `(?:card[-_]?)?(?:pin|пин|пін)(?:[-_\\s]?(?:code|код))?|(?:[CcСс][Vv][VvCcСсNn]|cvc|cid|ccv)2?|cv2|security\\s+code|код\\s+безопасности|card\\s+verification\\s+(?:code|value)`;
/** A PIN's word: the rest of PIN_OR_CVV_WORD names a CVV (3 digits or more; a PIN has 4 or more). */
const PIN_WORD = new RegExp(
	`^(?:(?:card[-_]?)?(?:pin|пин|пін)|${OTHER_PIN_WORDS}|${CJK_PIN_WORDS})`,
	'iu',
);
const SECRET_DIGITS_IN_WORDS = new RegExp(
	`(?<![\\p{L}\\p{N}_])(${PIN_OR_CVV_WORD})(?![\\p{L}\\p{N}])(?=[^.!?\\n\\r\\p{N}]{0,40}\\p{Nd})((?:${NAMING_GAP}|(?:${NAMING_WORDS})(?![\\p{L}\\p{N}])){0,24}?)(?<![\\p{N}•])(\\p{Nd}{3,8}(?![\\p{N}]|[.,:/\\-]\\p{N})|\\p{Nd}(?:[ \\u00a0.\\-]\\p{Nd}){2,7}(?![\\p{N}]|[ \\u00a0.,:/\\-]\\p{N}))(?!${NOT_A_SECRET_AFTER})`,
	'giu',
);
/**
 * Where a phrase names the card by its last four digits (`ending 1234`, `ending in 1234`, `last 4
 * digits 1234`, `•••• 1234`, `оканчивающейся на 1234`): those four digits name the card, not its
 * PIN or CVV, and stay.
 */
const LAST_FOUR_CLAUSE =
	'(?:(?:ending|ends)(?:\\s+(?:in|with|on))?|last\\s+(?:4|four)(?:\\s+digits)?|(?:о|за)канчивающ\\p{L}*\\s+на|[•*]{2,})[\\s\\u00a0:]*\\p{Nd}{4}(?![\\p{N}])';
/**
 * Words that name another number (a status, a request, an order, an amount, a count, a date),
 * also with a plural's or an ID's ending (`orders`, `requestId`): a phrase with one gives the
 * digits after it to that word, not to a PIN or CVV word before it (`requested` is no such word).
 */
const OTHER_NUMBER_WORDS =
	'(?:ending|ends|last|status|https?|error|request|order|amount|sum|total|balance|fee|attempt|tries|try|retry|retries|left|remaining|id|ref|phone|ticket|case|step|page|line|version|year|date|time|day|hour|minute|second|trace|transaction|payout|payment|invoice|account|limit|count)(?:s|es|id|ids|ref|no|number)?|статус|статуса|ошибка|ошибки|ошибкой|запрос|запроса|заказ|заказа|заказу|сумма|суммы|сумму|попытка|попытки|попыток|осталось|телефон|телефона';
/**
 * A PIN or CVV word, then a phrase of the same sentence (words that name no other number, the
 * card's last four: LAST_FOUR_CLAUSE), then `is`, `was`, `:` or `=` and the digits
 * (outside read r16-data: `PIN for your card ending 1234 is 4829`): the digits are the value the
 * word names. Digits other than a card's last four in the phrase, a sentence's or a clause's end
 * (`.`, `;`, a bracket) or a word of another number (OTHER_NUMBER_WORDS) stop it.
 */
const SECRET_DIGITS_AFTER_PHRASE = new RegExp(
	`(?<![\\p{L}\\p{N}_])(${PIN_OR_CVV_WORD})(?![\\p{L}\\p{N}])((?:${NAMING_GAP}|${LAST_FOUR_CLAUSE}|(?!(?:${OTHER_NUMBER_WORDS})(?!\\p{L}))\\p{L}+(?!\\p{L})){0,24}?(?:\\s+(?:is|was|будет|равен)|[:=])[\\s\\u00a0"'«]*)(?<![\\p{N}•])(\\p{Nd}{3,8}(?![\\p{N}]|[.,:/\\-]\\p{N})|\\p{Nd}(?:[ \\u00a0.\\-]\\p{Nd}){2,7}(?![\\p{N}]|[ \\u00a0.,:/\\-]\\p{N}))(?!${NOT_A_SECRET_AFTER})`,
	'giu',
);
/**
 * A PIN after its word and a number sign, then a word (outside read r17-data, finding 2: `Новый
 * PIN #4821 отправлен держателю`): the PIN, written as a number. A sign alone does not make a
 * number another's (`CVV #123` stays, as a CVV is not written so; `PIN, $1500` is an amount): only
 * after a PIN's word, with 4 to 8 digits, and a word after them that names no other number or
 * unit (`PIN #4821: 3 attempts`, `PIN #4821 attempts` stay).
 */
const PIN_NUMBER_SIGN = new RegExp(
	`(?<![\\p{L}\\p{N}_])((?:card[-_ ]?)?(?:pin|пин)(?:[-_ ]?(?:code|код))?)([\\s\\u00a0]*[#№][\\s\\u00a0]*)(\\d{4,8})(?![\\p{N}])(?=[\\s\\u00a0]+\\p{L})(?![\\s\\u00a0]+(?:${OTHER_NUMBER_WORDS})(?!\\p{L}))(?!${NOT_A_SECRET_AFTER})`,
	'giu',
);
/**
 * A PIN or CVV word alone at the end of its line (after words only, labelLine: `CVV`, `Your PIN`,
 * `Код безопасности`), and its value at the start of the next (outside read r19-data, finding 2:
 * `CVV\n123`, `PIN\r\n4821` were shown): a label above its value. Not a column of a table (a
 * delimiter or a digit on the word's line: `id;pin` is CsvColumns'), not digits that go on as a
 * number (`PIN\n2026-11-20`, `CVV\n4276 3800…`) or a quantity (`PIN\n1000 RUB`). The value may
 * stand one or two blank lines below its label (outside read r20-data, finding 2: `PIN\n\n1234`,
 * `CVV\n  \n123`); three blank lines and more part them.
 */
const SECRET_DIGITS_NEXT_LINE = new RegExp(
	`(?<![\\p{L}\\p{N}_])((?:${PIN_OR_CVV_WORD}|${OTHER_PIN_WORDS}|${OTHER_CVV_WORDS})(?:[-_ ](?:code|код|number|номер|nummer))?)(?![\\p{L}\\p{N}])([ \\t\\u00a0]*(?:(?:\\r\\n|\\r|\\n)[ \\t\\u00a0]*){1,3})(\\p{Nd}{3,8})(?![\\p{N}]|[ \\u00a0.,;:/|\\-]\\p{N})(?!${NOT_A_SECRET_AFTER})`,
	'giu',
);
/**
 * A PIN or CVV word and the digits right after it glued to it by a number sign (outside read
 * r20-data, finding 2: `CVV#123`, `PIN#4821`, `CVV#: 123`): the sign is the label's (`CVV#`, the
 * CVV's number). Every PIN and CVV word takes it, of every language read (outside read r22-data,
 * finding 9: `NIP#4821`, `PIN-Nummer#4821`, `Geheimzahl#4821`, `新密码#4821`, `卡验证码#739`), also
 * the full-width sign (`安全码＃739`); a Chinese word glued to the word before it, as Chinese is
 * written. A sign after a space stays another number's (`CVV #123 order failed`; r17-data).
 */
const SECRET_DIGITS_GLUED_SIGN = new RegExp(
	`((?<![\\p{L}\\p{N}_])(?:${PIN_OR_CVV_WORD}|${OTHER_PIN_WORDS}|${OTHER_CVV_WORDS})|${CJK_PIN_WORDS}|${CJK_CVV_WORDS})([#＃][ \\u00a0:]{0,2})(\\p{Nd}{3,8})(?![\\p{N}]|[.,:/\\-]\\p{N})(?!${NOT_A_SECRET_AFTER})`,
	'giu',
);
/** The digits a PIN or CVV word names, hidden (`••••`), or undefined where they are no such value. */
function namedDigitsMasked(
	name: string,
	digits: string,
	identifiers: ReadonlySet<string>,
): string | undefined {
	const count = digits.replace(/\D/gu, '').length;
	if ((PIN_WORD.test(name) && count < 4) || isIdentifier(digits, identifiers)) return undefined;
	if (/^cid/iu.test(name) && count > 4) return undefined;
	// `NIP` and `Nip` name a PIN; `nip` is an English word.
	if (/^nip$/iu.test(name) && name !== 'NIP' && name !== 'Nip') return undefined;
	return '•'.repeat(Math.min(count, 4));
}
/**
 * An Indian postal code (outside read r20-data, finding 1): India's postal index number is
 * written `PIN code 560001`, `PIN: 560001`, `Pincode - 201301`, and a table's `pincode` column.
 * It is ordinary data, kept exact, where all of these hold (choice textSecrets):
 * - the word is `PIN`, `PIN code`, `Pincode`, `PIN code no.` or `PIN number` alone, no card's word
 *   glued to it, in English (POSTAL_PIN_WRITTEN: `card PIN`, `ПИН`, `PIN-код`, `PIN is` are not);
 * - only a short gap of signs stands between the word and the value (`: `, ` - `, `#`: no words,
 *   so `PIN for your card is 560001` and `your PIN is 560001` stay a card's);
 * - the value is six digits, the first not 0 (India's postal codes; a card's PIN of 4, 5, 7 or 8
 *   digits, or 6 starting 0, is never one);
 * - an address's word stands within ADDRESS_BEFORE characters before the word or ADDRESS_AFTER
 *   after the value (address, deliver, ship to, billing, road, street, nagar, city, India,
 *   адрес…: ADDRESS_WORD);
 * - no card's word stands in those characters (card, ATM, debit, credit, UPI, CVV, OTP, MPIN,
 *   карта…: CARD_CONTEXT_WORD), nor a word that makes a PIN a secret right before the word (your,
 *   new, temporary, reset, enter, bank…: SECRET_PIN_BEFORE).
 * Anything else after a PIN word stays masked as a PIN: closed by default.
 */
/**
 * The same words as written, in English only (outside read r22-data, finding 5: `PIN-код 482193`
 * beside `Адрес доставки` is a Russian card PIN, read as `pin` once its Cyrillic was dropped):
 * `PIN`, `PIN code`, `PIN-code`, `Pincode`, `PIN code no.`, `PIN number`, any case, the parts
 * joined by a space, `-` or `_` or glued. Any other spelling (`PIN-код`, `ПИН`) is a card's PIN.
 */
const POSTAL_PIN_WRITTEN = /^pin(?:[\s\u00a0_-]?code)?(?:[\s\u00a0_-]?(?:no\.?|number))?$/i;
const POSTAL_PIN_DIGITS = /^[1-9]\d{5}$/;
const POSTAL_PIN_GAP = /^[\s\u00a0:=#.,\-\u2010-\u2015]{0,4}$/u;
const ADDRESS_BEFORE = 160;
const ADDRESS_AFTER = 40;
const SECRET_PIN_BEFORE_LENGTH = 24;
const ADDRESS_WORD = new RegExp(
	'(?<![\\p{L}\\p{N}])(?:address\\p{L}*|addr|deliver\\p{L}*|ship|shipping|shipped|billing|courier|postal|post\\s+office|road|rd|street|lane|marg|nagar|colony|sector|layout|district|taluk|tehsil|village|city|town|landmark|locality|india|адрес\\p{L}*|доставк\\p{L}*|улица|ул|город)(?![\\p{L}\\p{N}])',
	'iu',
);
const CARD_CONTEXT_WORD = new RegExp(
	'(?<![\\p{L}\\p{N}])(?:cards?|atm|debit|credit|upi|cvv2?|cvc2?|otp|mpin|tpin|карт\\p{L}*|банкомат\\p{L}*)(?![\\p{L}\\p{N}])',
	'iu',
);
const SECRET_PIN_BEFORE = new RegExp(
	'(?<![\\p{L}\\p{N}])(?:your|new|temporary|reset|enter|change[ds]?|secret|password|bank|ваш\\p{L}*|нов\\p{L}*)(?![\\p{L}\\p{N}])',
	'iu',
);
function postalPin(
	name: string,
	gap: string,
	digits: string,
	whole: string,
	offset: number,
): boolean {
	if (!POSTAL_PIN_WRITTEN.test(name.trim()) || !POSTAL_PIN_DIGITS.test(digits)) return false;
	if (!POSTAL_PIN_GAP.test(gap)) return false;
	const before = whole.slice(Math.max(0, offset - ADDRESS_BEFORE), offset);
	const end = offset + name.length + gap.length + digits.length;
	const after = whole.slice(end, end + ADDRESS_AFTER);
	if (CARD_CONTEXT_WORD.test(before) || CARD_CONTEXT_WORD.test(after)) return false;
	if (SECRET_PIN_BEFORE.test(before.slice(-SECRET_PIN_BEFORE_LENGTH))) return false;
	return ADDRESS_WORD.test(before) || ADDRESS_WORD.test(after);
}
/**
 * A PIN or CVV word of another language (OTHER_PIN_WORDS, OTHER_CVV_WORDS), then only naming
 * words of these languages or English and Russian, then the digits it names: the rule of
 * SECRET_DIGITS_IN_WORDS for those words. Read only where OTHER_WORD_HINT finds one of their
 * stems: one more word list in the rules every text passes made every text slower.
 */
const OTHER_SECRET_DIGITS = new RegExp(
	`(?<![\\p{L}\\p{N}_])(${OTHER_PIN_WORDS}|${OTHER_CVV_WORDS})(?![\\p{L}\\p{N}])((?:${NAMING_GAP}|(?:${NAMING_WORDS}|${OTHER_NAMING_WORDS})(?![\\p{L}\\p{N}])){0,24}?)(?<![\\p{N}•])(\\p{Nd}{3,8})(?![\\p{N}]|[.,:/\\-]\\p{N})(?!${NOT_A_SECRET_AFTER})`,
	'giu',
);
const OTHER_WORD_HINT =
	/geheim|kartenpr|sicherheitscode|pin[-\s]?n(?:umme)?r|\bnip\b|n[úu]mero\s+secreto|clave\s+secreta|c[óo]digo\s+de\s+(?:seg|verif)|cryptogramme|code\s+(?:confidentiel|secret|de\s+s|de\s+v)|безпеки/i;
const CJK_HINT = /密[码碼]|安全[码碼]|[验驗][证證][码碼]/;
/**
 * Whether the word at `offset` ends a label's line: only words and spaces before it on its line,
 * at most LABEL_LINE characters (read by hand: a look-behind over the line ran at every position
 * of a long text).
 */
const LABEL_LINE = 40;
function labelLine(whole: string, offset: number): boolean {
	const from = Math.max(0, offset - LABEL_LINE);
	const before = whole.slice(from, offset);
	const lineAt = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r'));
	if (lineAt < 0 && from > 0) return false;
	return LABEL_WORDS.test(before.slice(lineAt + 1));
}
const LABEL_WORDS = /^[\p{L} \t\u00a0]*$/u;
/**
 * Whether what stands between a PIN or CVV word and digits holds three blank lines or more (four
 * line breaks): they part the label from the digits, which are no longer its value, whatever
 * stands after the word (`PIN:`, `PIN is`, `CVV` alone: outside read r22-data, finding 10), as
 * SECRET_DIGITS_NEXT_LINE reads a label alone.
 */
function blankLinesPart(gap: string): boolean {
	return (gap.match(/\r\n|\r|\n/g)?.length ?? 0) > 3;
}
/** A CVV or PIN as a label's value on the next line, after another language's word or a Chinese one. */
function maskNamedDigitsMore(text: string, identifiers: ReadonlySet<string>): string {
	const each =
		(label: boolean) =>
		(match: string, name: string, gap: string, digits: string, offset: number, whole: string) => {
			if (label && !labelLine(whole, offset)) return match;
			if (blankLinesPart(gap)) return match;
			if (postalPin(name, gap, digits, whole, offset)) return match;
			const masked = namedDigitsMasked(name, digits, identifiers);
			return masked === undefined ? match : `${name}${gap}${masked}`;
		};
	let out = text;
	if (out.includes('\n') || out.includes('\r')) {
		out = out.replace(SECRET_DIGITS_NEXT_LINE, each(true));
	}
	if (/[#＃]/.test(out)) out = out.replace(SECRET_DIGITS_GLUED_SIGN, each(false));
	if (OTHER_WORD_HINT.test(out)) out = out.replace(OTHER_SECRET_DIGITS, each(false));
	if (CJK_HINT.test(out)) out = out.replace(CJK_SECRET_DIGITS, each(false));
	return out;
}
/**
 * A field's name that is a PIN's or a CVV's and nothing else (normalised: `pin`, `pin_code`,
 * `cardPin`, `cvv`, `CVC2`, `card_cvv`, `security_code`): the name of a form part or a table's
 * column (outside read r19-data, finding 3). Not a name that counts or flags something about one
 * (`pin_tries`, `cvv_checked`), nor `cid` or `cv` alone (a client's ID, a résumé).
 */
const PIN_OR_CVV_NAME =
	/^(?:card)?(?:(?:pin|tpin)(?:code|number|no)?|(?:cvv|cvc|csc|cvn|cvd|ccv)2?(?:code|number)?|cv2|securitycode)$/;
/**
 * What a form part's or a column's PIN or CVV becomes: its digits hidden, anything else as sent;
 * in a column of postal codes (postalColumn), a postal code's six digits as sent.
 */
function namedValueMasked(value: string, postal = false): string {
	const digits = /^(\s*["']?)(\d{3,8})(["']?\s*)$/.exec(value);
	if (digits && postal && POSTAL_PIN_DIGITS.test(digits[2])) return value;
	return digits ? `${digits[1]}${'•'.repeat(Math.min(digits[2].length, 4))}${digits[3]}` : value;
}
/**
 * A table's column of Indian postal codes (outside read r20-data, finding 1:
 * `order,city,pincode,qty`): a column named `pin`, `pincode` or `pin_code` alone, in English (POSTAL_PIN_WRITTEN)
 * in a header that also names an address's part (city, address, district, state…) and no card's
 * (card, cvv, expiry, PAN…). Its six-digit cells are postal codes; any other cell is masked.
 */
const ADDRESS_COLUMN =
	/address|addr|city|town|district|street|village|locality|landmark|state|country|postal|delivery|shipping/;
const CARD_COLUMN =
	/card|cvv|cvc|cvn|csc|cvd|ccv|expir|secret|password|^pan$|^atm|^upi|^mpin|^tpin/;
function postalColumn(header: readonly string[], column: number): boolean {
	const names = header.map(normalise);
	return (
		POSTAL_PIN_WRITTEN.test(header[column].trim().replace(/^["']|["']$/g, '')) &&
		names.some((name, index) => index !== column && ADDRESS_COLUMN.test(name)) &&
		!names.some((name) => CARD_COLUMN.test(name))
	);
}
/**
 * A multipart/form-data part named a PIN or CVV (`Content-Disposition: form-data; name="cvv"`,
 * maybe other header lines, a blank line, then the value's line). The name also in single quotes
 * or bare, as a hand-written or a lenient client's part may have it (outside read r20-data,
 * finding 2: `name=cvv`), or in RFC 5987's form (`name*=UTF-8''cvv`).
 */
const FORM_PART =
	/(\bname\*?\s*=\s*(?:"([^"\r\n]{1,64})"|'([^'\r\n]{1,64})'|(?:[A-Za-z0-9_-]*'[A-Za-z-]*')?([^\s;"'\r\n]{1,64}))[^\r\n]*(?:\r?\n[^\r\n]+)*\r?\n\r?\n)([^\r\n]*)/gi;
/**
 * A form part's value as the part's name says (outside read r22-data, finding 7): the name read
 * as a pair's is (gate/pairs.ts namedSecret: a bracketed or dotted path's last part decides,
 * `payment[card][cvv]`, `user.password`, else the whole path). A PIN's or a CVV's digits are
 * hidden (its other characters as sent); any other secret's value (`password`, `api_key`,
 * `X-API-Key`) is hidden whole, but a value that cannot be one (contract/records.ts
 * secretValueShown: `ok`, `false`).
 */
function formPartValue(name: string, value: string): string | undefined {
	const written = decoded(name);
	const parts = written.split(/[.[\]]+/).filter((part) => part !== '' && !/^\d+$/.test(part));
	if (PIN_OR_CVV_NAME.test(normalise(parts[parts.length - 1] ?? written))) {
		return namedValueMasked(value);
	}
	const spec = namedSecret(written);
	if (!spec || value.trim() === '' || secretValueShown(spec, value)) return undefined;
	return HIDDEN_PART;
}
function maskFormParts(text: string): string {
	return text.replace(
		FORM_PART,
		(
			match,
			head: string,
			quoted: string | undefined,
			single: string | undefined,
			bare: string | undefined,
			value: string,
		) => {
			const masked = formPartValue(quoted ?? single ?? bare ?? '', value);
			return masked === undefined ? match : `${head}${masked}`;
		},
	);
}
/**
 * A line that may be a table's header with a PIN or CVV column: a cell starting with such a word
 * between delimiters (`;`, `,`, tab, `|`), and a line after it. Read first, so that a text with no
 * such header is not split into lines.
 */
const CSV_HEADER_HINT =
	/(?:^|[;,\t|])[ "']*(?:card[ _-]?)?(?:t?pin|cvv|cvc|csc|cvn|cvd|ccv|cv2|security[ _-]?code)[^\r\n]*(?:\r\n|\n|\r)/im;
const CSV_DELIMITERS = [';', ',', '\t', '|'];
/**
 * A table in a text (CSV: a header row, then rows of as many cells) whose header names a PIN or
 * CVV column (`card_number;cvc;pin_code`): that column's cells of 3–8 digits hidden in every row
 * up to the first row of another width; every other cell and the header as written.
 */
function maskCsvColumns(text: string): string {
	if (!CSV_HEADER_HINT.test(text)) return text;
	const parts = text.split(/(\r\n|\n|\r)/);
	for (let at = 0; at < parts.length; at += 2) {
		for (const delimiter of CSV_DELIMITERS) {
			const header = parts[at].split(delimiter);
			if (header.length < 2) continue;
			const columns = header
				.map((cell, index) => (PIN_OR_CVV_NAME.test(normalise(cell)) ? index : -1))
				.filter((index) => index >= 0);
			if (columns.length === 0) continue;
			let row = at + 2;
			for (; row < parts.length; row += 2) {
				const cells = parts[row].split(delimiter);
				if (cells.length !== header.length) break;
				for (const column of columns) {
					cells[column] = namedValueMasked(cells[column], postalColumn(header, column));
				}
				parts[row] = cells.join(delimiter);
			}
			at = row - 2;
			break;
		}
	}
	return parts.join('');
}
/** A PIN or CVV in a form part or a table's column named for one (finding 3). */
function maskNamedContainers(text: string): string {
	return maskCsvColumns(/name\*?\s*=/i.test(text) ? maskFormParts(text) : text);
}
/** A separator a text may put between a card number's groups (finding 2): short, no letter or digit. */
const CARD_GAP =
	"[\\s\\u00a0\\u2007\\u2009\\u202f\\-\\u2010-\\u2015.\\u00b7\\u2022,;|/\\\\_*~'\\[\\]]{1,3}";
/**
 * A run of 13–19 digits whatever stands around it (outside read r12-data, finding 2: `card_4111…`,
 * `4111…_1229`, `0x4111…`): a card number when it passes the card checksum. Not a decimal's
 * fraction (`0.4111…`); a comma or a point and digits after it are the next field (CARD_END).
 */
const BARE_CARD_RUN = /(?<!\d|\d[.,])\d{13,19}(?!\d)/g;
/**
 * A run of digits glued to a letter on both sides inside one word of letters and digits only, of
 * IDENTIFIER_WORD characters or more (`A41561222316145C0000050011400501`, an SBP operation's ID:
 * outside read r15-data, finding 6): an identifier, not a card. A card beside `_`, `0x`, or a word
 * on one side only (`card_4111…`, `card4111…`, `4111…RUB`), or in a shorter word, stays a card.
 */
export const IDENTIFIER_WORD = 24;
function inIdentifierWord(text: string, start: number, end: number): boolean {
	if (!/^\d+$/.test(text.slice(start, end))) return false;
	if (!/[A-Za-z]/.test(text[start - 1] ?? '') || !/[A-Za-z]/.test(text[end] ?? '')) return false;
	let from = start;
	while (from > 0 && /[A-Za-z0-9]/.test(text[from - 1])) from--;
	let to = end;
	while (to < text.length && /[A-Za-z0-9]/.test(text[to])) to++;
	if (/[\p{L}\p{N}_]/u.test(text[from - 1] ?? '') || /[\p{L}\p{N}_]/u.test(text[to] ?? ''))
		return false;
	return to - from >= IDENTIFIER_WORD;
}
/** Digits in groups of any size with such separators between: read whole by looseCard. */
const LOOSE_DIGIT_RUN = new RegExp(`\\d+(?:${CARD_GAP}\\d+)*`, 'g');
/**
 * A run's groups after its first when the first gap differs from all the others
 * (`DE89 4000.0000.0000.0000.006`: a number's end, then a card written with points), else undefined:
 * the card is read from its own first group.
 */
function runAfterOtherGap(match: string): string | undefined {
	const gaps: string[] = match.match(/\D+/gu) ?? [];
	const [first, second] = gaps;
	if (gaps.length < 3 || first === second || gaps.slice(2).some((gap) => gap !== second)) {
		return undefined;
	}
	return match.slice(match.indexOf(first) + first.length);
}
/** A word of letters only, with a letter no hex number has (`card`, `карта`; not `abcdef`). */
function plainWord(word: string): boolean {
	return /^\p{L}+$/u.test(word) && /[^A-Fa-f]/u.test(word);
}
/**
 * A run of digits that is a card number however it is written (finding 2): 13–19 digits that
 * pass the card checksum, in groups of any size with any short separator, or glued to a word
 * (`card4111…`, `карта4111…`). Not: part of a hex word or an ID (`tx_…`, `a1b2…`), an amount
 * (`12 345 678 901 234`, a decimal), or a run of two groups with a decimal point between.
 */
function looseCard(text: string, start: number, match: string): boolean {
	const groups = match.split(/\D+/u);
	const digits = groups.join('');
	if (digits.length < 13 || digits.length > 19 || !luhn(digits)) return false;
	// Thousands grouping (`1 234 567 890 123`) is an amount.
	if (groups.length > 2 && groups[0].length <= 3 && groups.slice(1).every((g) => g.length === 3)) {
		return false;
	}
	if (groups.length === 2 && /^\d+[.,]\d+$/.test(match)) return false;
	// One separator all along, as a card is written (`4111-1111-…`, `4111 11 11 …`): mixed ones
	// are a date and a time beside an ID (`demo-order-1004 · 2026-11-21 10:00`), not a card.
	const gaps = match.match(/\D+/gu) ?? [];
	if (gaps.some((gap) => gap !== gaps[0])) return false;
	const before = text.slice(0, start);
	const after = text.slice(start + match.length);
	const wordBefore = /[\p{L}\p{N}_]+$/u.exec(before)?.[0];
	if (wordBefore !== undefined) {
		// Glued to a word: only a plain word, itself not joined to an ID (`tx-abc`, `x_card`).
		if (!plainWord(wordBefore)) return false;
		const ahead = before.slice(0, before.length - wordBefore.length);
		if (/[-_./:]$/u.test(ahead)) return false;
	}
	const wordAfter = /^[\p{L}\p{N}_]+/u.exec(after)?.[0];
	if (wordAfter !== undefined && !plainWord(wordAfter)) return false;
	// A decimal part after the run is an amount's; a `+` before it, a phone's.
	if (/^[.,]\d/u.test(after) || /[+]$/u.test(before)) return false;
	return true;
}
/**
 * A key, token or password named in words, then its value within a few words of the same
 * sentence (finding 6): `Your new API key is 9f8e…`, `member key is …`, `key=…`, `Authorization:
 * Token …`, `sessionToken …`, `password for login is Qwerty12345`, `пароль от кабинета …`. The
 * value is token-like: 8 characters or more with a digit, not a date, a time or an amount.
 */
const KEY_WORD =
	'(?:(?:api|member|secret|access|private|signing|webhook|company|session|auth|refresh|bearer)[\\s_-]?)?(?:keys?|tokens?)|secrets?|passwords?|passphrases?|passwd|пароль|пароля|паролем|ключ|ключа|ключом|токен|токена|токеном|секрет|секрета';
/**
 * A word right before a value that names it as another thing than the key word a few words back
 * (issue 50: `API key rejected, request id 12345678`, `token expired at 1732871234`, `secret
 * rotated for order ORD-20261142`): the value is that word's. Not `login`, `member Ivan` or
 * `invalid`: `token invalid: Qw3rty12345` still names the token.
 */
const OTHER_VALUE_WORD =
	'id|ids|uuid|guid|(?:request|order|trace|transaction|payout|payment|deposit|tx|operation|correlation|user|member|company|client|customer|merchant|card)[-_]?id|request|req|order|orders|invoice|status|trace|ref|reference|rrn|tx|txid|hash|number|no|nr|num|amount|sum|total|balance|count|attempts|date|time|at|on|until|till|since|before|after|expires|expired|expiry|ttl|version|port|http|ending|заказ\\p{L}{0,2}|запрос\\p{L}{0,2}|номер\\p{L}{0,2}|статус\\p{L}{0,2}|сумм\\p{L}{0,2}|дат\\p{L}{0,2}|время|до|после|в|платеж\\p{L}{0,2}|платёж\\p{L}{0,2}|выплат\\p{L}{0,2}|депозит\\p{L}{0,2}|операци\\p{L}{0,2}|кошел\\p{L}{0,3}|адрес\\p{L}{0,2}|' +
	// A record's number (outside read r18-data, finding 3: `заявка ZX-2026-0001`, `ticket INC0012345`).
	'tickets?|case|cases|issue|incident|inc|claim|bill|receipt|invoices|' +
	// A project's or a policy's name (outside read r19-data, finding 14: `Top secret project
	// Apollo2024`, `password policy v2024.11`).
	'projects?|policy|policies|campaign|проект\\p{L}{0,2}|политик\\p{L}{0,2}|заявк\\p{L}{0,2}|обращени\\p{L}{0,2}|сч[её]т\\p{L}{0,2}|тикет\\p{L}{0,2}|инцидент\\p{L}{0,2}|квитанци\\p{L}{0,2}|накладн\\p{L}{0,2}';
/**
 * A word that names a party or a thing by its ID when a space alone follows (`API key for
 * merchant 12345678`, `error code 40100012`), but may name the secret after a colon (`password
 * for user: Qwerty12345`, `secret code: 8f7a…`).
 */
const ENTITY_WORD =
	'code|phone|merchant|terminal|shop|store|company|member|user|username|client|customer|account|wallet|address|payout|payment|deposit|transaction|operation|card|' +
	// The user who did it, in Russian (outside read r19-data, finding 14: `Ключ API перевыпущен
	// пользователем admin2024`); after a colon the value is still the secret.
	'пользовател\\p{L}{0,3}|логин\\p{L}{0,2}|клиент\\p{L}{0,2}';
const KEY_GAP = `[\\s:=#"'«»()\\u2014-]`;
/**
 * Words that make a key no credential (outside read r17-data, finding 6): an Idempotency-Key (the
 * node shows its own as `idempotencyKey`), a public key, a deduplication, sort or cache key, before
 * the key word, or after it in Russian (`ключ идемпотентности`, `открытый ключ`). Its value stays.
 */
const NOT_SECRET_KEY_BEFORE =
	'idempotency|idempotence|public|dedup|dedupe|deduplication|sort|partition|cache|lookup|routing|открыт\\p{L}{0,3}|публичн\\p{L}{0,3}';
const NOT_SECRET_KEY_AFTER = 'идемпотентности|дедупликации|сортировки|кэша|кеша';
const SECRET_IN_WORDS = new RegExp(
	`(?<![\\p{L}\\p{N}_])(?<!(?<![\\p{L}\\p{N}_])(?:${NOT_SECRET_KEY_BEFORE})[\\s_-]{0,2})(${KEY_WORD})(?![\\p{L}\\p{N}])(?![\\s_-]{1,2}(?:${NOT_SECRET_KEY_AFTER})(?!\\p{L}))((?:${KEY_GAP}{1,4}[^\\s.!?\\n]{1,24}?){0,4}?[\\s:=#"'«»\\u2014-]{1,4})(?<!(?<![\\p{L}\\p{N}_])(?:${OTHER_VALUE_WORD})${KEY_GAP}{1,4})(?<!(?<![\\p{L}\\p{N}_])(?:${ENTITY_WORD})[\\s\\u00a0]{1,4})(?<![\\p{L}\\p{N}_]-)(?!\\p{L}[\\p{L}\\p{N}_-]*[=:][^=])((?=[^\\s"'«»,;()<>\\[\\]]*\\d)[^\\s"'«»,;()<>\\[\\]]{8,})(?![^\\s"'«»,;()<>\\[\\]])(?!${NOT_A_SECRET_AFTER})`,
	'giu',
);
/**
 * A date, a time, an amount or a share written in digits (`2026-11-20`, `20.11.2026`, `10:00`,
 * `1500.50`, `10000000%`): no secret's look (a share: issue 50).
 */
function dateOrAmount(bare: string): boolean {
	if (/^\d{4}-\d\d-\d\d/u.test(bare) || /^\d\d[./]\d\d[./]\d{2,4}/u.test(bare)) return true;
	if (/^[\d.,:/+-]+$/u.test(bare) && /\D/u.test(bare)) return true;
	return /^[\d.,]+%$/u.test(bare);
}
/** A unit right after a value: the value is a quantity (`12345678 RUB`). */
const UNIT_NEXT = new RegExp(`^${NOT_A_SECRET_AFTER}`, 'i');
/** A value after a key word that is no secret: a date, a time, an amount, a link, a tx hash far off. */
function ordinaryValue(value: string, words: string, name: string): boolean {
	const bare = value.replace(/[.:!?]+$/u, '');
	if (!/\d/u.test(bare) || bare.length < 8) return true;
	if (dateOrAmount(bare)) return true;
	if (bare.startsWith('[hidden') || maskedAlready(bare) || /•/u.test(bare)) return true;
	// A token's contract (a TRON or EVM address) after the word token is public, not a secret
	// (outside read r15-data, finding 4: `Refund sent in token TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t`).
	if (/^(?:tokens?|токен(?:а|ом)?)$/iu.test(name) && chainAddress(bare)) return true;
	// A token's name, a ticker or a chain's standard (r18-data, finding 3: `token USDT-TRC20`).
	if (/^(?:tokens?|токен(?:а|ом)?)$/iu.test(name) && TOKEN_NAME.test(bare)) return true;
	// A tx hash some words after `token` (`USDT token sent, tx 0x…`) is not the token.
	const farOff = /[\p{L}\p{N}]/u.test(words);
	return farOff && (/^0x[0-9a-f]+$/iu.test(bare) || /^[0-9a-f]{64}$/iu.test(bare));
}

/**
 * A token's name: an upper-case ticker (`USDT`), a chain's token standard (`TRC20`, `ERC-20`,
 * `BEP20`), or both joined (`USDT-TRC20`, `USDT_ERC20`): public, no secret after the word token.
 */
const TOKEN_NAME =
	/^(?:[A-Z]{2,6}[-_])?(?:[A-Z]{2,6}|(?:TRC|ERC|BEP|SPL|BRC|ARC|SRC|KRC|TIP|NEP|HRC|ZRC)-?\d{1,4})$/u;
/**
 * A crypto token's name after the bare word token and `:` or `=` (outside read r19-data, finding
 * 14: `token: USDT-TRC20`, `token=TRX`), as the field `tokenSymbol` is kept: a ticker or a chain's
 * standard (TOKEN_NAME), never a session's, an access or an invite token (a prefixed name).
 */
function tokenNamed(name: string, value: string): boolean {
	return /^token$/i.test(name) && TOKEN_NAME.test(value);
}

/** What the patterns read: for whom, in a free text or an unknown field, sparing what identifiers. */
export interface PatternReading {
	strong: boolean;
	/** A free text (a message, an error), where the model loses any long number too. */
	inText: boolean;
	identifiers: ReadonlySet<string>;
	/** The text an encoded word holds (finding 5 of r15-data): not decoded again. */
	decoded?: boolean;
	/** What the field's name says of the numbers in the text (cardAt). */
	cardNamed?: boolean;
	notCard?: boolean;
	registries?: readonly Registry[];
}

/** A match that is (part of) an identifier this run knows: never a secret by its look. */
function isIdentifier(match: string, identifiers: ReadonlySet<string>): boolean {
	if (identifiers.size === 0) return false;
	if (identifiers.has(match)) return true;
	const digits = cardDigits(match);
	for (const id of identifiers) {
		if (id.includes(match)) return true;
		if (digits.length >= 10 && id.replace(/\D/g, '') === digits && /^\d[\d\s.-]*$/.test(id)) {
			return true;
		}
	}
	return false;
}

/**
 * Characters a text may carry between a secret's characters that show as nothing: every default
 * ignorable code point (zero-width space and joiners, direction marks, soft hyphen, the combining
 * grapheme joiner, Hangul fillers, variation selectors, byte order mark…; outside read r9-data,
 * finding 7, and r11-data, finding 3), by the Unicode property rather than a list.
 */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\u180e]/gu;
/**
 * Every dash (Unicode Pd: hyphens, en and em dashes, the fullwidth and small hyphen-minus…) and
 * minus sign (U+2212 and its superscript, subscript, heavy and modifier forms): read as `-`, so a
 * card number's groups joined by any of them read as joined by a hyphen (r11-data, finding 3).
 */
const ANY_DASH = /[\p{Pd}\u2212\u207b\u208b\u2796\u02d7\ufe63\uff0d]/gu;
/**
 * The zero of each run of ten decimal digits (Unicode Nd) other than ASCII, as Unicode 15 lists
 * them: Arabic-Indic, Devanagari… full-width, and the astral ones (outside read r19-data, finding
 * 7: Mathematical Bold, Double-Struck, Sans-Serif and Monospace digits, `𝟐𝟐𝟎𝟎…`). A digit of a
 * run not listed (a later Unicode) reads by its place in its run (digitZero).
 */
const DIGIT_ZEROS = [
	0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66, 0xde6, 0xe50,
	0xed0, 0xf20, 0x1040, 0x1090, 0x17e0, 0x1810, 0x1946, 0x19d0, 0x1a80, 0x1a90, 0x1b50, 0x1bb0,
	0x1c40, 0x1c50, 0xa620, 0xa8d0, 0xa900, 0xa9d0, 0xa9f0, 0xaa50, 0xabf0, 0xff10, 0x104a0, 0x10d30,
	0x10d40, 0x11066, 0x110f0, 0x11136, 0x111d0, 0x112f0, 0x11450, 0x114d0, 0x11650, 0x116c0, 0x116d0,
	0x116da, 0x11730, 0x118e0, 0x11950, 0x11bf0, 0x11c50, 0x11d50, 0x11da0, 0x11de0, 0x11f50, 0x16130,
	0x16a60, 0x16ac0, 0x16b50, 0x16d70, 0x1ccf0, 0x1d7ce, 0x1d7d8, 0x1d7e2, 0x1d7ec, 0x1d7f6, 0x1e140,
	0x1e2f0, 0x1e4f0, 0x1e5f1, 0x1e950, 0x1fbf0,
];
/** Every decimal digit but ASCII's, by the Unicode property (astral ones too). */
const OTHER_DIGIT = /(?![0-9])\p{Nd}/gu;

/** One code point that is another decimal digit (OTHER_DIGIT), compiled once: plainChar runs per character. */
const ONE_OTHER_DIGIT = /^(?![0-9])\p{Nd}$/u;
const ONE_IGNORABLE = /^[\p{Default_Ignorable_Code_Point}\u180e]$/u;
const ONE_DASH = /^[\p{Pd}\u2212\u207b\u208b\u2796\u02d7\ufe63\uff0d]$/u;
/** One decimal digit's code point, as any one code point (no RegExp built per character). */
const ONE_DIGIT = /^\p{Nd}$/u;

/**
 * The zero of the run of ten a decimal digit stands in: a listed zero (DIGIT_ZEROS), else by its
 * place in the block of digits around it (Unicode writes every run of ten from its zero up, and
 * runs side by side, as the Mathematical digits, each from a zero ten after the last).
 */
function digitZero(code: number): number {
	const listed = DIGIT_ZEROS.find((start) => code >= start && code <= start + 9);
	if (listed !== undefined) return listed;
	let first = code;
	while (first > 0 && first > code - 100 && ONE_DIGIT.test(String.fromCodePoint(first - 1)))
		first--;
	return code - ((code - first) % 10);
}

/** One code point of a text as it reads: dropped (''), `-` for a dash, its ASCII digit, or itself. */
function plainChar(char: string): string {
	// ASCII reads as itself (its one dash is `-`, its digits are ASCII, nothing in it is ignorable).
	if (char.length === 1 && char.charCodeAt(0) < 0x80) return char;
	if (ONE_IGNORABLE.test(char)) return '';
	if (ONE_DASH.test(char)) return '-';
	if (ONE_OTHER_DIGIT.test(char)) {
		const code = char.codePointAt(0) ?? 0;
		return String(code - digitZero(code));
	}
	return compatLetter(char) ?? char;
}

/**
 * A letter written in a compatibility form, read as its NFKC letters (outside read r19-data,
 * finding 12: `ＰＩＮ: 4821`, `ＣＶＶ: 123` were not read as PIN and CVV): full-width Latin
 * (`Ｐ`), Latin ligatures (`ﬁ`), the mathematical alphabets (`𝐏`), letterlike symbols (`ℙ`).
 * Only these blocks are normalised, one code point at a time (no other text is touched), and
 * only to letters: `№` (a sign, NFKC `No`) and `²` stay as written.
 */
function compatLetter(char: string): string | undefined {
	const code = char.codePointAt(0) ?? 0;
	const compat =
		(code >= 0xff21 && code <= 0xff5a) ||
		(code >= 0xfb00 && code <= 0xfb06) ||
		(code >= 0x1d400 && code <= 0x1d6a3) ||
		(code >= 0x2100 && code <= 0x214f);
	if (!compat || !ONE_LETTER.test(char)) return undefined;
	const read = char.normalize('NFKC');
	return ONE_OR_MORE_LETTERS.test(read) ? read : undefined;
}
const ONE_LETTER = /^\p{L}$/u;
const ONE_OR_MORE_LETTERS = /^\p{L}+$/u;

/**
 * A text as it reads: the invisible characters dropped, every dash or minus written `-`, and every
 * decimal digit written as its ASCII digit (`٤١١١`, `４１１１` are 4111). The same text when it has neither.
 */
export function plainForm(text: string): string {
	if (!/[^ -~\t\n\r]/.test(text)) return text;
	return text.replace(INVISIBLE, '').replace(ANY_DASH, '-').replace(OTHER_DIGIT, plainChar);
}

/**
 * A text read for matching, with where each of its characters stands in the text as written:
 * character `i` of `text` stands for the written characters `start[i]` to `end[i]` (exclusive).
 */
interface ReadText {
	text: string;
	start: number[];
	end: number[];
}

/** Named HTML entities a text may carry for a space, a sign or a dash. */
const NAMED_ENTITIES: Record<string, string> = {
	nbsp: '\u00a0',
	ensp: ' ',
	emsp: ' ',
	thinsp: ' ',
	amp: '&',
	lt: '<',
	gt: '>',
	quot: '"',
	apos: "'",
	colon: ':',
	equals: '=',
	num: '#',
	hyphen: '-',
	dash: '-',
	ndash: '-',
	mdash: '-',
	minus: '-',
	sol: '/',
	period: '.',
	comma: ',',
	semi: ';',
};

/**
 * What a text says once decoded for reading (issue 50, outside read r18-data, findings 1 and 2):
 * percent-escapes as the characters they encode (`Your%20PIN%20is%204829`), `+` after a letter, a digit or a sign and before a letter or digit
 * as a space (a form's `PIN+4829`), numeric and named HTML entities as their
 * characters (`PIN&#32;4829`), and each run of HTML tags as one space (`PIN: <b>4829</b>`,
 * `<td>PIN</td><td>4829</td>`). Each read character keeps the written span it stands for.
 */
const ENCODED_PART =
	/(?:%[0-9A-Fa-f]{2})+|(?<=[\p{L}\p{N}:=,;])\+(?=[\p{L}\p{N}])|&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z]{2,8});|(?:<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>)+/gu;
function decodedForReading(text: string): ReadText {
	const out: ReadText = { text: '', start: [], end: [] };
	const push = (chars: string, from: number, to: number) => {
		for (let index = 0; index < chars.length; index++) {
			out.text += chars[index];
			out.start.push(from);
			out.end.push(to);
		}
	};
	let at = 0;
	for (const found of text.matchAll(ENCODED_PART)) {
		const from = found.index ?? 0;
		for (let index = at; index < from; index++) push(text[index], index, index + 1);
		const part = found[0];
		const to = from + part.length;
		at = to;
		if (part.startsWith('%')) {
			// One escape, or the escapes of one UTF-8 character, at a time.
			let index = 0;
			while (index < part.length) {
				let width = 3;
				let chars: string | undefined;
				for (; width <= 12 && index + width <= part.length; width += 3) {
					try {
						chars = decodeURIComponent(part.slice(index, index + width));
						break;
					} catch {
						chars = undefined;
					}
				}
				if (chars === undefined) {
					push(part.slice(index, index + 3), from + index, from + index + 3);
					index += 3;
				} else {
					push(chars, from + index, from + index + width);
					index += width;
				}
			}
		} else if (part === '+') {
			push(' ', from, to);
		} else if (part.startsWith('&')) {
			const name = part.slice(1, -1);
			let chars: string | undefined = NAMED_ENTITIES[name.toLowerCase()];
			if (name.startsWith('#')) {
				const code = /^#[xX]/.test(name)
					? parseInt(name.slice(2), 16)
					: parseInt(name.slice(1), 10);
				chars = code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
			}
			push(chars ?? part, from, to);
		} else {
			push(' ', from, to);
		}
	}
	for (let index = at; index < text.length; index++) push(text[index], index, index + 1);
	return out;
}

/**
 * A text read as written: each UTF-16 unit stands for itself (an astral character's two units
 * too, as readingForm walks them: outside read r19-data, finding 7, `𝟐𝟐𝟎𝟎…` was put back
 * misplaced when counted by code points).
 */
function writtenAsRead(text: string): ReadText {
	const start = new Array<number>(text.length);
	const end = new Array<number>(text.length);
	for (let index = 0; index < text.length; index++) {
		start[index] = index;
		end[index] = index + 1;
	}
	return { text, start, end };
}

/** A text as it reads for matching: decoded (decodedForReading), then its plain form (plainForm). */
function readingForm(text: string): ReadText {
	const decodedText = /[%+&<]/.test(text) ? decodedForReading(text) : writtenAsRead(text);
	if (!/[^ -~\t\n\r]/.test(decodedText.text)) return decodedText;
	const out: ReadText = { text: '', start: [], end: [] };
	let index = 0;
	for (const char of decodedText.text) {
		const plain = plainChar(char);
		const from = decodedText.start[index];
		const to = decodedText.end[index + char.length - 1];
		for (let at = 0; at < plain.length; at++) {
			out.text += plain[at];
			out.start.push(from);
			out.end.push(to);
		}
		index += char.length;
	}
	return out;
}

/** The length of the pieces that resynchronise a long comparison (changedSpans). */
const ANCHOR = 8;
/** Up to this many characters in all, the two texts are compared by Myers' algorithm alone. */
const MYERS_ALONE = 256;

/**
 * Where `after` differs from `before`: spans `[beforeFrom, beforeTo, afterFrom, afterTo]`. The
 * texts' common start and end are cut off; a short middle is compared by the shortest edit script
 * (Myers, whose time grows with the middle's length times its edits: a text with many masks took
 * tens of milliseconds). A long one is walked: equal characters are taken as they come, and at a
 * difference the next place where the two agree on ANCHOR characters in a row closes the
 * difference, which Myers then compares alone. Any alignment of equal characters is safe here:
 * only characters that stand in the masked text unchanged are kept as written.
 */
function changedSpans(before: string, after: string, limit = 1024): number[][] {
	let head = 0;
	while (head < before.length && head < after.length && before[head] === after[head]) head++;
	let tail = 0;
	while (
		tail < before.length - head &&
		tail < after.length - head &&
		before[before.length - 1 - tail] === after[after.length - 1 - tail]
	) {
		tail++;
	}
	const a = before.slice(head, before.length - tail);
	const b = after.slice(head, after.length - tail);
	if (a.length + b.length <= MYERS_ALONE) return myersSpans(a, b, head, head, limit);
	// Where each piece of ANCHOR characters stands in `a`, first place first.
	const pieces = new Map<string, number[]>();
	for (let at = 0; at + ANCHOR <= a.length; at++) {
		const piece = a.slice(at, at + ANCHOR);
		const places = pieces.get(piece);
		if (places) places.push(at);
		else pieces.set(piece, [at]);
	}
	const spans: number[][] = [];
	let i = 0;
	let j = 0;
	while (i < a.length || j < b.length) {
		while (i < a.length && j < b.length && a[i] === b[j]) {
			i++;
			j++;
		}
		if (i >= a.length || j >= b.length) {
			spans.push(...myersSpans(a.slice(i), b.slice(j), head + i, head + j, limit));
			break;
		}
		let closed = false;
		for (let jj = j; jj + ANCHOR <= b.length && !closed; jj++) {
			const places = pieces.get(b.slice(jj, jj + ANCHOR));
			const ii = places?.find((place) => place >= i);
			if (ii === undefined) continue;
			spans.push(...myersSpans(a.slice(i, ii), b.slice(j, jj), head + i, head + j, limit));
			i = ii;
			j = jj;
			closed = true;
		}
		if (!closed) {
			spans.push(...myersSpans(a.slice(i), b.slice(j), head + i, head + j, limit));
			break;
		}
	}
	return spans;
}

/** Up to this many cells, two texts are compared by a table of their common lengths (lcsSpans). */
const LCS_TABLE = 250_000;

/**
 * Where `b` differs from `a` (as myersSpans), by a table of the longest common subsequences of
 * their ends: equal characters are kept wherever they stand (keeping one is never worse), else
 * the side that keeps more of what follows goes on.
 */
function lcsSpans(a: string, b: string, fromA: number, fromB: number): number[][] {
	const n = a.length;
	const m = b.length;
	const width = m + 1;
	// common[i * width + j]: the longest common subsequence of a[i..] and b[j..] (at most
	// min(n, m) <= 500 here, so 16 bits hold it).
	const common = new Uint16Array((n + 1) * width);
	for (let i = n - 1; i >= 0; i--) {
		for (let j = m - 1; j >= 0; j--) {
			common[i * width + j] =
				a[i] === b[j]
					? common[(i + 1) * width + j + 1] + 1
					: Math.max(common[(i + 1) * width + j], common[i * width + j + 1]);
		}
	}
	const spans: number[][] = [];
	let i = 0;
	let j = 0;
	let fromI = 0;
	let fromJ = 0;
	while (i < n && j < m) {
		if (a[i] === b[j]) {
			if (fromI < i || fromJ < j) spans.push([fromA + fromI, fromA + i, fromB + fromJ, fromB + j]);
			i++;
			j++;
			fromI = i;
			fromJ = j;
		} else if (common[(i + 1) * width + j] >= common[i * width + j + 1]) i++;
		else j++;
	}
	if (fromI < n || fromJ < m) spans.push([fromA + fromI, fromA + n, fromB + fromJ, fromB + m]);
	return spans;
}

/**
 * Where `b` differs from `a` (spans as changedSpans gives them, `a` starting at `fromA` and `b` at
 * `fromB` of the whole texts), by the shortest edit script (Myers). Past `limit` edits the whole
 * is one span.
 */
function myersSpans(a: string, b: string, fromA: number, fromB: number, limit: number): number[][] {
	if (a.length === 0 && b.length === 0) return [];
	const whole = [[fromA, fromA + a.length, fromB, fromB + b.length]];
	if (a.length === 0 || b.length === 0) return whole;
	const n = a.length;
	const m = b.length;
	// Myers' time grows with the edits, and a mask that shortens a text makes as many edits as
	// it drops characters: where the two lengths make a small table, the table is quicker.
	if (n * m <= LCS_TABLE) return lcsSpans(a, b, fromA, fromB);
	const max = Math.min(n + m, limit);
	// v[k + offset]: the furthest x on diagonal k; -1 where no path reached it yet. Each step
	// writes only the diagonals of its own parity and reads the others, which the step before
	// wrote: one array, written in place; the trace keeps of each step only the diagonals
	// -d-1..d+1 it can be walked back through.
	const offset = max + 1;
	const v = new Int32Array(2 * offset + 1).fill(-1);
	v[offset + 1] = 0;
	const trace: Int32Array[] = [];
	let found = -1;
	for (let d = 0; d <= max && found < 0; d++) {
		trace.push(v.slice(offset - d - 1, offset + d + 2));
		for (let k = -d; k <= d; k += 2) {
			const left = v[offset + k - 1];
			const right = v[offset + k + 1];
			const down = k === -d || (k !== d && left < right);
			let x = down ? Math.max(right, 0) : Math.max(left, 0) + 1;
			let y = x - k;
			while (x < n && y < m && a[x] === b[y]) {
				x++;
				y++;
			}
			v[offset + k] = x;
			if (x >= n && y >= m) {
				found = d;
				break;
			}
		}
	}
	if (found < 0) return whole;
	// Back from the end: the pairs of equal characters, last first.
	const equal: Array<[number, number]> = [];
	let x = n;
	let y = m;
	for (let d = found; d > 0; d--) {
		const prev = trace[d];
		const at = (k: number) => prev[k + d + 1];
		const k = x - y;
		const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
		const prevK = down ? k + 1 : k - 1;
		const prevX = Math.max(at(prevK), 0);
		const prevY = prevX - prevK;
		while (x > prevX && y > prevY) {
			equal.push([x - 1, y - 1]);
			x--;
			y--;
		}
		x = prevX;
		y = prevY;
	}
	while (x > 0 && y > 0) {
		equal.push([x - 1, y - 1]);
		x--;
		y--;
	}
	equal.reverse();
	const spans: number[][] = [];
	let lastA = -1;
	let lastB = -1;
	for (const [ea, eb] of [...equal, [n, m] as [number, number]]) {
		if (ea > lastA + 1 || eb > lastB + 1) {
			spans.push([fromA + lastA + 1, fromA + ea, fromB + lastB + 1, fromB + eb]);
		}
		lastA = ea;
		lastB = eb;
	}
	return spans;
}

/**
 * The written text with what the masking changed in its read form (`read` masked is `masked`)
 * put back where it was written: only the written characters of a hidden secret change, every
 * other character comes out as it was sent (outside read r18-data, finding 4: a dash, a
 * full-width digit, a `%20` beside a masked PIN stay).
 */
function maskedAsWritten(text: string, read: ReadText, masked: string): string {
	let out = '';
	let at = 0;
	for (const [from, to, maskFrom, maskTo] of changedSpans(read.text, masked)) {
		const writtenFrom = from < read.text.length ? read.start[from] : text.length;
		const writtenTo = to > from ? read.end[to - 1] : writtenFrom;
		// Spans that share a written character (an escape read as two) are written together.
		out += text.slice(at, Math.max(at, writtenFrom)) + masked.slice(maskFrom, maskTo);
		at = Math.max(at, writtenTo);
	}
	return out + text.slice(at);
}

/**
 * A text masked as `mask` masks it, read also as it reads (readingForm: decoded, invisible
 * characters dropped, other dashes and digits plain): where the read form shows a secret, its
 * written characters are hidden and every other character stays as written; else the text masked
 * as written, to the byte.
 */
export function maskReadingPlain(text: string, mask: (text: string) => string): string {
	const masked = mask(text);
	// The read form is the masked text's: what the written form hid stays hidden whole, also
	// where the read form would cut it shorter (outside read r22-data, finding 6: a `+` read as a
	// space in `token: Ab12/Cd34+Ef56==` left `[hidden]+Ef56==`).
	const read = readingForm(masked);
	if (read.text === masked) return masked;
	const maskedRead = mask(read.text);
	if (maskedRead === read.text) return masked;
	// What the written form alone shows as a secret goes too.
	return mask(maskedAsWritten(masked, read, maskedRead));
}

/** Every secret a text shows by its look, hidden; the rest of the text as it was. */
export function maskPatterns(text: string, reading: PatternReading): string {
	return maskReadingPlain(text, (written) => maskPatternsAsWritten(written, reading));
}

/**
 * A payment code of GOST R 56042 (`ST00012|Name=…|PersonalAcc=…|PersAcc=…`; outside read
 * r17-data, finding 4): its fields of a registry's or an account's number (PersonalAcc,
 * CorrespAcc, BIC, PayeeINN, KPP, OGRN…) keep their digits when they are that registry's number
 * (contract/records.ts registryNumber; r18-data, finding 7: a card of 16 digits under `KPP=` is
 * masked); the fields of the code's own numbers, whose length the standard leaves free (a
 * contract's, a document's number, a sum: QR_NUMBER_FIELDS), keep theirs; a card word or a field
 * named for a card (`Purpose=Перевод на карту 4111…`) still masks one, and every other secret's
 * look is read. The payer's account at the payee (`PersAcc`), of any length, keeps any number but
 * a card's: a number there that a card scheme issues and that passes the card checksum is masked
 * (issue 50, fixer dfix23: a payer may give a card's number as the account).
 */
const QR_TEXT = /^ST0001[123]\|/;
const QR_NUMBER_FIELDS = new Set([
	'pensacc',
	'docno',
	'docidx',
	'contract',
	'flat',
	'payeridnum',
	'counterid',
	'counterval',
	'quittid',
	'instnum',
	'classnum',
	'ruleid',
	'execid',
	'sum',
	'addamount',
	'techcode',
]);
function maskQrText(text: string, reading: PatternReading): string {
	const [head, ...parts] = text.split('|');
	const masked = parts.map((part) => {
		const name = part.slice(0, Math.max(0, part.indexOf('=')));
		const card = /card|pan|карт/i.test(name);
		const number = QR_NUMBER_FIELDS.has(normalise(name));
		const named = card ? undefined : registriesIn(normalise(name));
		return maskPatternsAsWritten(part, {
			...reading,
			cardNamed: reading.cardNamed || card,
			notCard: !card && (reading.notCard || number),
			registries: [...(reading.registries ?? []), ...(named ?? [])],
		});
	});
	return [head, ...masked].join('|');
}

/**
 * Magnetic stripe data in a text (issue 50, fixer dfix23): track 2 (`;PAN=YYMM…?`, its
 * equivalent `PANDYYMM…F`, or without sentinels `PAN=YYMM…`) and track 1 (`%BPAN^NAME^YYMM…?`).
 * The card number (12–19 digits passing the card checksum), then the expiry (a month 01–12) and
 * at least the service code: the whole track is hidden, as its expiry, service code and
 * discretionary data (a PIN verification value, a CVV) are card data as much as the number.
 */
const TRACK_DATA =
	/(?<![\p{L}\p{N}_])(?:;?(\d{12,19})[=D]\d\d(?:0[1-9]|1[0-2])\d{3}\d*(?:\?.?|F+)?|%?B(\d{12,19})\^[^^\r\n]{0,26}\^\d\d(?:0[1-9]|1[0-2])[^?\r\n]{0,79}\??)/gu;
/** Twelve digits in a row: what any track data has (a cheap test before TRACK_DATA). */
const TWELVE_DIGITS = /\d{12}/;

function maskTrackData(text: string): string {
	if (!TWELVE_DIGITS.test(text)) return text;
	return text.replace(TRACK_DATA, (match: string, track2?: string, track1?: string) =>
		luhn(track2 ?? track1 ?? '') ? HIDDEN_PART : match,
	);
}

function maskPatternsAsWritten(text: string, reading: PatternReading): string {
	if (QR_TEXT.test(text)) return maskQrText(text, reading);
	const { identifiers } = reading;
	const unlessId = (replace: (match: string) => string) => (match: string) =>
		isIdentifier(match, identifiers) ? match : replace(match);
	let out = maskTrackData(withoutUserinfo(text)).replace(
		WEBHOOK_SECRET,
		unlessId((match) => maskWebhookSecret(match, reading.strong ? 'model' : 'user')),
	);
	out = out.replace(
		JWT,
		unlessId(() => HIDDEN_PART),
	);
	out = out.replace(BEARER, (_match, kind: string) => `${kind} ${HIDDEN_PART}`);
	out = out.replace(
		KEY_SHAPES,
		unlessId((match) => (randomPart(match) ? HIDDEN_PART : match)),
	);
	out = out.replace(
		CLIENT_SECRET,
		unlessId(() => HIDDEN_PART),
	);
	out = out.replace(
		PREFIXED_KEY,
		unlessId((match) => (recordId(match) ? match : HIDDEN_PART)),
	);
	out = out.replace(
		LIVE_KEY,
		unlessId(() => HIDDEN_PART),
	);
	out = out.replace(
		LOWER_KEY,
		unlessId(() => HIDDEN_PART),
	);
	out = out.replace(KEY_IN_WORDS, (match, name: string, space: string, value: string) =>
		/\d/.test(value) && tokenLike(value) && !isIdentifier(value, identifiers)
			? `${name}${space}${HIDDEN_PART}`
			: match,
	);
	out = out.replace(LINK, (link) => maskLink(link, { strong: reading.strong, identifiers }));
	out = out.replace(NAMED_SECRET, (match, name: string, separator: string, value: string) =>
		value.startsWith('[hidden') || isIdentifier(value, identifiers) || tokenNamed(name, value)
			? match
			: `${name}${separator}${HIDDEN_PART}`,
	);
	out = out.replace(
		PIN_IN_TEXT,
		(match, name: string, separator: string, digits: string, offset: number, whole: string) =>
			postalPin(name, separator, digits, whole, offset) ? match : `${name}${separator}••••`,
	);
	out = out.replace(
		PIN_NUMBER_SIGN,
		(match, name: string, sign: string, digits: string, offset: number, whole: string) =>
			postalPin(name, sign, digits, whole, offset) ? match : `${name}${sign}••••`,
	);
	out = out.replace(
		RU_PIN_IN_TEXT,
		(_match, name: string, separator: string) => `${name}${separator}••••`,
	);
	out = out.replace(
		RU_NAMED_SECRET,
		(match, name: string, separator: string, value: string, offset: number, whole: string) => {
			if (value.startsWith('[hidden') || maskedAlready(value)) return match;
			const named = /[:=]/.test(separator);
			if (!named && !(/\d/.test(value) && value.length >= 6)) return match;
			// After a space only: a date, an amount or a quantity is no key (`в токене 1500.50 USDT`,
			// `ключ 12345678 RUB`; issue 50). After `:` or `=` the value goes whatever it is.
			const bare = value.replace(/[.:!?]+$/u, '');
			if (!named && (dateOrAmount(bare) || UNIT_NEXT.test(whole.slice(offset + match.length)))) {
				return match;
			}
			if (isIdentifier(value, identifiers)) return match;
			// A token's contract address after `токен` is public (outside read r15-data, finding 4).
			const plainValue = value.replace(/[.:!?]+$/u, '');
			if (
				/^токен(?:а|у|ом|е)?$/iu.test(name) &&
				(chainAddress(plainValue) || TOKEN_NAME.test(plainValue))
			) {
				return match;
			}
			return `${name}${separator}${HIDDEN_PART}`;
		},
	);
	out = out.replace(
		CVV_IN_TEXT,
		(_match, name: string, separator: string) => `${name}${separator}•••`,
	);
	out = out.replace(SECRET_IN_WORDS, (match, name: string, words: string, value: string) =>
		ordinaryValue(value, words, name) || isIdentifier(value.replace(/[.:!?]+$/u, ''), identifiers)
			? match
			: `${name}${words}${HIDDEN_PART}${/[.:!?]+$/u.exec(value)?.[0] ?? ''}`,
	);
	out = out.replace(CARD_DIGITS, (match: string, offset: number, whole: string) =>
		!isIdentifier(match, identifiers) &&
		cardAt(cardDigits(match), whole, offset, reading) &&
		!decimalNumber(match)
			? maskRequisite(match)
			: match,
	);
	const looseRun = (match: string, offset: number, whole: string): boolean =>
		looseCard(whole, offset, match) &&
		cardAt(match.replace(/\D/g, ''), whole, offset, reading, match) &&
		!isIdentifier(match, identifiers) &&
		!inIdentifierWord(whole, offset, offset + match.length);
	out = out.replace(LOOSE_DIGIT_RUN, (match: string, offset: number, whole: string) => {
		if (looseRun(match, offset, whole)) return maskRequisite(match);
		const tail = runAfterOtherGap(match);
		return tail !== undefined && looseRun(tail, offset + match.length - tail.length, whole)
			? match.slice(0, match.length - tail.length) + maskRequisite(tail)
			: match;
	});
	out = out.replace(BARE_CARD_RUN, (match: string, offset: number, whole: string) =>
		cardAt(match, whole, offset, reading) &&
		!epochMilliseconds(match) &&
		!isIdentifier(match, identifiers) &&
		!inIdentifierWord(whole, offset, offset + match.length)
			? maskRequisite(match)
			: match,
	);
	out = out.replace(
		FULL_WIDTH_DIGITS,
		unlessId((match) => {
			const digits = encodedCard(match);
			return digits === undefined ? match : maskRequisite(digits);
		}),
	);
	out = out.replace(
		BASE64_WORD,
		unlessId((match) => (encodedCard(match) === undefined ? match : HIDDEN_PART)),
	);
	// An encoded word whose text shows a secret by these same rules is hidden whole (finding 5).
	// The decoded text is read once: what it holds encoded again is not decoded (bounded work).
	if (!reading.decoded) {
		for (const [pattern, hex] of [
			[HEX_WORD, true],
			[LONG_BASE64_WORD, false],
		] as const) {
			out = out.replace(
				pattern,
				unlessId((match) => {
					const text = decodedWord(match, hex);
					if (text === undefined) return match;
					// A number of a card's length, encoded alone, is hidden checksum or not: a
					// reference is not written in hex (a card's number as `panHex`).
					if (ENCODED_CARD_LENGTH.test(text)) return HIDDEN_PART;
					const inner = { ...reading, inText: true, decoded: true };
					return maskPatternsAsWritten(text, inner) === text ? match : HIDDEN_PART;
				}),
			);
		}
	}
	out = out.replace(
		SECRET_DIGITS_IN_WORDS,
		(match, name: string, words: string, digits: string, offset: number, whole: string) => {
			const count = digits.replace(/\D/gu, '').length;
			if ((PIN_WORD.test(name) && count < 4) || isIdentifier(digits, identifiers)) return match;
			if (blankLinesPart(words)) return match;
			// `cid` is a card's ID (Amex, 4 digits) or a correlation or client ID (longer).
			if (/^cid/iu.test(name) && count > 4) return match;
			if (postalPin(name, words, digits, whole, offset)) return match;
			return `${name}${words}${'•'.repeat(Math.min(count, 4))}`;
		},
	);
	out = out.replace(
		SECRET_DIGITS_AFTER_PHRASE,
		(match, name: string, phrase: string, digits: string, offset: number, whole: string) => {
			const count = digits.replace(/\D/gu, '').length;
			if ((PIN_WORD.test(name) && count < 4) || isIdentifier(digits, identifiers)) return match;
			if (blankLinesPart(phrase)) return match;
			if (/^cid/iu.test(name) && count > 4) return match;
			if (postalPin(name, phrase, digits, whole, offset)) return match;
			return `${name}${phrase}${'•'.repeat(Math.min(count, 4))}`;
		},
	);
	out = maskNamedDigitsMore(maskNamedContainers(out), identifiers);
	// Part of a card number in a free text: 12 digits or more as cards are grouped, or in one run,
	// cut short or not (outside read r7-data, finding 3: 15 of 16 digits give the card back).
	if (reading.inText) {
		out = out.replace(CUT_CARD, (match: string, offset: number, whole: string) => {
			if (isIdentifier(match, identifiers)) return match;
			// One run of digits without a cut mark is a card's only where the text says card
			// (`card 427638001234567`): an ID of 16 digits in a message stays.
			const bare = /^\d+$/.test(match);
			const named = CARD_WORD.test(whole.slice(Math.max(0, offset - 32), offset));
			if (bare && (epochMilliseconds(match) || !named)) return match;
			// Grouped, with no cut mark and no card word: a card's part only by its look (finding 6).
			if (!bare && !named && !CUT_MARK_END.test(match) && ordinaryGroups(match, offset, whole)) {
				return match;
			}
			return maskRequisite(match);
		});
	}
	// For the model, any long number in a free text (a phone or card requisite).
	if (reading.strong && reading.inText) {
		out = out.replace(LONG_NUMBER, (match: string, offset: number, whole: string) =>
			inHexWord(whole, offset, offset + match.length) || isIdentifier(match, identifiers)
				? match
				: maskRequisite(match),
		);
	}
	return out;
}

/**
 * After digits, a unit that makes them a quantity (NOT_A_SECRET_AFTER): also what keeps a short
 * secret an answer names from being found in an amount of its texts (learned.ts digitsOfAnswer).
 */
export const UNIT_AFTER_DIGITS = NOT_A_SECRET_AFTER;
