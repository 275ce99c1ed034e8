// Types of lanes.js (plain JavaScript: jest.config.js loads it without a TypeScript step).
export declare const TEST_PROJECTS: string[];
export declare const BROWSER_TEST: RegExp;
export declare const HEAVY_MODULES: Record<'process' | 'model' | 'browser', RegExp>;
export type HeavyModule = keyof typeof HEAVY_MODULES;
export declare function testFiles(): Promise<{ file: string; loads: HeavyModule[] }[]>;
export declare function leftOutOfUnitLane(): Promise<string[]>;
