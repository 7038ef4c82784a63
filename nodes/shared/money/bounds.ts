/*
 * The bounds of the memory of sent writes (write.ts), here so that their words (words.ts) and the
 * docs (scripts/facts.mjs) say the numbers the code keeps.
 */

/** How many money writes one n8n process keeps at most; the oldest no longer held go first. */
export const MAX_KEPT = 10_000;

/**
 * How long a write stays held (never forgotten) after the last write or failure of a node run
 * that did not end normally, or after a write whose key names a payment was sent. n8n's Retry On
 * Fail runs the node again at most 5 times, at most 5 s apart, right after the failure: an hour
 * covers it with a wide margin.
 */
export const HELD_MS = 60 * 60_000;

/**
 * How many payments named by a key the user set or a tool's payment reference one n8n process
 * keeps a trace of (named.ts), for its life: a trace is digests, a record ID of at most 64
 * characters and at most two seal digests; measured in V8 about 430 bytes a paid trace and at
 * most about 780, so about 45 MB and at most about 80 MB at the cap. When that many are kept, a new payment under a named key is refused before it is
 * sent (SENT_WRITES_FULL, not paid) rather than forgetting one.
 */
export const MAX_NAMED = 100_000;
