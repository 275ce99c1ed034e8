// Limits of the turn request that the caller should know before it sends: plain JavaScript, so
// that the page loads it as it is (its prompt box's maxlength) and the turn schema (turn.ts) uses
// the same number. Both count UTF-16 code units: zod's string max and HTML's maxlength do.

/** The longest prompt a turn takes, in UTF-16 code units (JavaScript's string length). */
export const MAX_PROMPT_CHARS = 20_000;
