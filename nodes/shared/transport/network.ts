/** Why a request got no HTTP answer at all, in words a user can act on. */
export type NetworkFailureKind =
	| 'refused'
	| 'dns'
	| 'timeout'
	| 'reset'
	| 'tls'
	| 'tlsBroken'
	| 'blockedPort'
	| 'invalidRequest'
	| 'other';

export interface NetworkFailure {
	kind: NetworkFailureKind;
	/** The system error code (e.g. ECONNREFUSED), when one was found. */
	code: string | null;
	/** What happened, without the code (n8n replaces messages that name a known code). */
	explanation: string;
	/**
	 * Whether the request may have reached the service: false only for the failures that happen
	 * before a byte of it is sent (nothing listening, name not resolved, TLS handshake refused, a
	 * port HTTP clients refuse). A reset, a timeout or an unrecognised failure may come after the
	 * service received the request and acted on it.
	 */
	maybeSent: boolean;
}

/** The failures that prove the request never left: the connection was never set up. */
const NOTHING_SENT: ReadonlySet<NetworkFailureKind> = new Set([
	'refused',
	'dns',
	'tls',
	'blockedPort',
	'invalidRequest',
]);

const EXPLANATIONS: Record<NetworkFailureKind, string> = {
	refused: 'nothing is listening at this address (connection refused)',
	dns: 'its host name could not be resolved',
	timeout: 'it did not answer in time',
	reset: 'the connection was closed before an answer came',
	tls: 'the secure connection (TLS) failed: an untrusted, expired or mismatched certificate, or https to a port that speaks plain http',
	tlsBroken:
		'the secure connection (TLS) broke (a protocol or record error), which can happen after the request was sent',
	blockedPort:
		'the port is one that HTTP clients refuse to connect to (a reserved port such as 9 or 25); use the port the service listens on',
	invalidRequest:
		'n8n refused to build the request (a header value holds a character a request cannot carry, such as a line break in the API Key), so nothing was sent',
	other: 'no answer came back',
};

/**
 * TLS failures of the handshake, before a byte of the request is sent: the certificate is not
 * trusted or does not match, or the port speaks plain http. Any other TLS or protocol error
 * (EPROTO, a bad record MAC, a decryption failure) may come after the request was written.
 */
const TLS_HANDSHAKE_CODE =
	/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|HOSTNAME_MISMATCH|ALTNAME|WRONG_VERSION_NUMBER/i;
const TLS_CODE = /SSL|TLS|EPROTO/i;

const CODE_IN_MESSAGE =
	/\b(E[A-Z]{2,}[A-Z_]*|ERR_[A-Z_]+|[A-Z_]*CERT[A-Z_]*|[A-Z_]*SELF_SIGNED[A-Z_]*)\b/;

/** Words of a failure that may come after the request left n8n. */
const SENT_SIGNS =
	/ECONNRESET|EPIPE|socket hang up|ETIMEDOUT|ECONNABORTED|ESOCKETTIMEDOUT|timed? ?out|EPROTO|bad record mac|decryption failed/i;

function kindOf(code: string | null, message: string): NetworkFailureKind {
	const text = `${code ?? ''} ${message}`;
	if (code !== null && TLS_HANDSHAKE_CODE.test(code)) return 'tls';
	if (code !== null && TLS_CODE.test(code)) return 'tlsBroken';
	if (/ECONNREFUSED/i.test(text)) return 'refused';
	if (/ENOTFOUND|EAI_AGAIN|getaddrinfo/i.test(text)) return 'dns';
	if (/ETIMEDOUT|ECONNABORTED|ESOCKETTIMEDOUT|TimeoutError|timeout|timed out/i.test(text))
		return 'timeout';
	if (/ECONNRESET|EPIPE|socket hang up/i.test(text)) return 'reset';
	if (/certificate|wrong version number/i.test(text)) return 'tls';
	if (/SSL|TLS|EPROTO/i.test(text)) return 'tlsBroken';
	if (/bad port/i.test(text)) return 'blockedPort';
	// Node checks a header's name and value before it opens a connection.
	if (
		/ERR_INVALID_CHAR|ERR_HTTP_INVALID_HEADER_VALUE|ERR_INVALID_HTTP_TOKEN|Invalid character in header/i.test(
			text,
		)
	) {
		return 'invalidRequest';
	}
	return 'other';
}

/**
 * Reads a failed request's error: n8n wraps the socket error (which carries the code) in one
 * or two errors of its own, so the chain of causes is searched. Only the code and messages are
 * read, never the request (which holds the API key).
 */
export function networkFailure(error: unknown): NetworkFailure {
	let code: string | null = null;
	const messages: string[] = [];
	let current: unknown = error;
	for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth++) {
		const candidate = current as {
			code?: unknown;
			message?: unknown;
			messages?: unknown;
			cause?: unknown;
		};
		if (code === null && typeof candidate.code === 'string' && candidate.code !== '') {
			code = candidate.code;
		}
		if (typeof candidate.message === 'string') messages.push(candidate.message);
		// n8n's NodeApiError keeps the socket error's own message (with its code) only here.
		if (Array.isArray(candidate.messages)) {
			messages.push(...candidate.messages.filter((m): m is string => typeof m === 'string'));
		}
		current = candidate.cause;
	}
	const text = messages.join(' ');
	if (code === null) code = CODE_IN_MESSAGE.exec(text)?.[1] ?? null;
	// The socket's own code decides the kind; the messages only where it says nothing.
	const byCode = code === null ? 'other' : kindOf(code, '');
	const kind = byCode !== 'other' ? byCode : kindOf(code, text);
	// "Nothing was sent" only when nothing in the whole chain says it may have been: a reset whose
	// cause mentions a refused proxy fallback was still a reset of a request that had left.
	const maybeSent = !NOTHING_SENT.has(kind) || SENT_SIGNS.test(`${code ?? ''} ${text}`);
	return { kind, code, explanation: EXPLANATIONS[kind], maybeSent };
}
