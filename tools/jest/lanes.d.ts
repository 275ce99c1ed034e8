// Types of lanes.js (plain JavaScript: jest's config loads it without a TypeScript step).
export declare const BROWSER_TEST: RegExp;
export declare const PROCESS_TESTS: string[];
