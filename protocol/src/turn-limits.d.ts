// Types of turn-limits.js (plain JavaScript, so that the page can load it without a build step).

/** The longest prompt a turn takes, in UTF-16 code units (JavaScript's string length). */
export declare const MAX_PROMPT_CHARS: number;
