// Types of opus-framing.js (plain JavaScript, so that the page can load it without a build step).
export interface OpusRecord {
  packet: Uint8Array;
  /** Decoded samples to drop before the ones to play. */
  skip: number;
  /** Decoded samples to play after those. */
  keep: number;
}
export declare const RECORD_HEADER_BYTES: number;
export declare function packOpusRecords(records: readonly OpusRecord[]): Uint8Array;
export declare function unpackOpusRecords(chunk: Uint8Array): OpusRecord[];
