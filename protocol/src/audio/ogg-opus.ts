// An Ogg Opus file writer (RFC 7845): OpusHead and OpusTags pages, then the packets, one page per
// ~second of audio, with granule positions at 48 kHz and the pre-skip in the head. Written by hand:
// the npm Ogg muxers found either decode/encode PCM themselves or target browsers only, and the
// container format is ~70 lines (page header, lacing, CRC-32 with the Ogg polynomial).

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let k = 0; k < 8; k++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let crc = 0;
  for (const b of bytes) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ b) & 0xff]!) >>> 0;
  return crc;
}

const PAGE_SAMPLES_48K = 48_000; // flush a page about once a second
const MAX_SEGMENTS = 255; // lacing values a page header holds (RFC 3533 section 6)

/**
 * Granule positions follow RFC 7845 section 4: each audio page's is the 48 kHz sample count
 * (pre-skip included) at the end of the last packet completing on it, so they never decrease.
 * The end of the stream is the last page's granule (section 4.4, end trimming): it may stop short
 * of its packets, by no more than its last packet decodes to, and that page carries the
 * end-of-stream flag. So a page goes out only when the packet after it arrives: the last page
 * always holds the last packet, and finish() can mark it and trim it. (Flushing a page as soon as
 * it was full wrote, for a packet count that filled whole pages, an empty end-of-stream page whose
 * trimmed granule was lower than the page before it.)
 */
export class OggOpusWriter {
  readonly #pages: Uint8Array[] = [];
  readonly #serial: number;
  readonly #factor: number;
  #sequence = 0;
  /** Packets of the page being built, and their lacing values. */
  #packets: Uint8Array[] = [];
  #segments = 0;
  /** Decoded samples (48 kHz) up to the end of the packets added so far, pre-skip included. */
  #granule = 0;
  /** The granule of the last page written (where the page being built starts). */
  #pageStartGranule = 0;
  #finished = false;
  readonly #preSkip48: number;
  readonly frameSamples: number;

  /** `preSkip` and `frameSamples` in samples at `inputRate` (the encoder's rate). */
  constructor(inputRate: number, preSkip: number, frameSamples: number, serial = 0x4b4f4b4f) {
    this.frameSamples = frameSamples;
    this.#serial = serial;
    this.#factor = 48_000 / inputRate;
    // The headers (RFC 7845 section 5): OpusHead alone on the first page, OpusTags on the next.
    const head = new Uint8Array(19);
    const v = new DataView(head.buffer);
    head.set(new TextEncoder().encode('OpusHead'), 0);
    head[8] = 1; // version
    head[9] = 1; // channels
    this.#preSkip48 = Math.round(preSkip * this.#factor);
    v.setUint16(10, this.#preSkip48, true);
    v.setUint32(12, inputRate, true);
    v.setInt16(16, 0, true); // output gain
    head[18] = 0; // mapping family: mono/stereo
    this.#page([head], 0, 0x02);
    const vendor = new TextEncoder().encode('kokoro-speech');
    const tags = new Uint8Array(8 + 4 + vendor.length + 4);
    tags.set(new TextEncoder().encode('OpusTags'), 0);
    new DataView(tags.buffer).setUint32(8, vendor.length, true);
    tags.set(vendor, 12);
    this.#page([tags], 0, 0);
  }

  /** One Opus packet of `frameSamples` samples. */
  add(packet: Uint8Array): void {
    if (this.#finished) throw new Error('the Ogg Opus file is finished; no packet can be added');
    const segments = Math.floor(packet.byteLength / 255) + 1;
    if (segments > MAX_SEGMENTS) {
      throw new RangeError(`an Opus packet of ${packet.byteLength} bytes does not fit one Ogg page`);
    }
    const full = this.#granule - this.#pageStartGranule >= PAGE_SAMPLES_48K;
    if (this.#packets.length > 0 && (full || this.#segments + segments > MAX_SEGMENTS)) this.#flush();
    this.#packets.push(packet);
    this.#segments += segments;
    this.#granule += this.frameSamples * this.#factor;
  }

  /** The pages complete so far and not yet taken (for streaming the file as it is written). */
  drain(): Buffer {
    return Buffer.concat(this.#pages.splice(0));
  }

  /**
   * The rest of the file (all of it if nothing was drained). `playableSamples` (at the input rate,
   * pre-skip excluded) trims the end: the last page's granule says where playback stops (RFC 7845
   * section 4.4). Packets wholly past that end are left out (they would decode to nothing that
   * plays), so the trimming stays within the last packet, as that section asks.
   */
  finish(playableSamples?: number): Buffer {
    if (this.#finished) throw new Error('the Ogg Opus file is already finished');
    if (playableSamples !== undefined && !(Number.isInteger(playableSamples) && playableSamples >= 0)) {
      throw new RangeError(`playableSamples must be a whole number of samples, not ${playableSamples}`);
    }
    this.#finished = true;
    const end =
      playableSamples === undefined
        ? this.#granule
        : Math.min(this.#granule, Math.round(playableSamples * this.#factor) + this.#preSkip48);
    if (this.#packets.length > 0 && end < this.#pageStartGranule) {
      const written = (this.#pageStartGranule - this.#preSkip48) / this.#factor;
      throw new RangeError(
        `playableSamples ${playableSamples} ends before the pages already written (${written} samples): ` +
          'only the last page can be trimmed',
      );
    }
    const packetSamples = this.frameSamples * this.#factor;
    while (this.#packets.length > 1 && end <= this.#granule - packetSamples) {
      this.#packets.pop();
      this.#granule -= packetSamples;
    }
    // No packet at all: an empty end-of-stream page closes a stream of headers only.
    this.#page(this.#packets, this.#packets.length > 0 ? end : 0, 0x04);
    this.#packets = [];
    return this.drain();
  }

  #flush(): void {
    this.#page(this.#packets, this.#granule, 0);
    this.#packets = [];
    this.#segments = 0;
    this.#pageStartGranule = this.#granule;
  }

  #page(packets: readonly Uint8Array[], granule: number, flags: number): void {
    const lacing: number[] = [];
    for (const p of packets) {
      for (let n = p.byteLength; ; n -= 255) {
        lacing.push(Math.min(n, 255));
        if (n < 255) break;
      }
    }
    const body = Buffer.concat(packets);
    const page = new Uint8Array(27 + lacing.length + body.byteLength);
    const v = new DataView(page.buffer);
    page.set(new TextEncoder().encode('OggS'), 0);
    page[4] = 0;
    page[5] = flags;
    v.setBigInt64(6, BigInt(granule), true);
    v.setUint32(14, this.#serial, true);
    v.setUint32(18, this.#sequence++, true);
    page[26] = lacing.length;
    page.set(lacing, 27);
    page.set(body, 27 + lacing.length);
    v.setUint32(22, crc32(page), true);
    this.#pages.push(page);
  }
}

/** One page as read back: its granule position, header flags and the packets completing on it. */
export interface OggPageInfo {
  granule: bigint;
  /** 0x01 continued packet, 0x02 beginning of stream, 0x04 end of stream. */
  flags: number;
  completedPackets: number;
}

/** Reads an Ogg Opus file back: its head, its packets and its pages (for tests and to check what was written). */
export function readOggOpus(file: Uint8Array): {
  channels: number;
  preSkip: number;
  inputRate: number;
  packets: Uint8Array[];
  lastGranule: bigint;
  pages: OggPageInfo[];
} {
  const packets: Uint8Array[] = [];
  const pages: OggPageInfo[] = [];
  let partial: Uint8Array[] = [];
  let lastGranule = 0n;
  let at = 0;
  while (at < file.byteLength) {
    const v = new DataView(file.buffer, file.byteOffset + at);
    if (new TextDecoder().decode(file.subarray(at, at + 4)) !== 'OggS') throw new Error(`no Ogg page at byte ${at}`);
    if (at + 27 > file.byteLength) throw new Error(`truncated Ogg page header at byte ${at}`);
    const segments = file[at + 26]!;
    const page = file.subarray(at, at + 27 + segments);
    const stored = v.getUint32(22, true);
    let bodyLength = 0;
    for (let i = 0; i < segments; i++) bodyLength += file[at + 27 + i] ?? 0;
    if (at + 27 + segments + bodyLength > file.byteLength) throw new Error(`truncated Ogg page at byte ${at}`);
    const whole = new Uint8Array(file.subarray(at, at + 27 + segments + bodyLength)); // a copy
    new DataView(whole.buffer).setUint32(22, 0, true);
    if (crc32(whole) !== stored) throw new Error(`bad CRC on the Ogg page at byte ${at}`);
    const granule = v.getBigInt64(6, true);
    if (granule >= 0n) lastGranule = granule;
    const completedBefore = packets.length;
    let body = at + 27 + segments;
    for (let i = 0; i < segments; i++) {
      const n = page[27 + i]!;
      partial.push(file.subarray(body, body + n));
      body += n;
      if (n < 255) {
        packets.push(Buffer.concat(partial));
        partial = [];
      }
    }
    pages.push({ granule, flags: file[at + 5]!, completedPackets: packets.length - completedBefore });
    at = body;
  }
  const head = packets.shift();
  if (!head || new TextDecoder().decode(head.subarray(0, 8)) !== 'OpusHead') throw new Error('no OpusHead');
  const tags = packets.shift();
  if (!tags || new TextDecoder().decode(tags.subarray(0, 8)) !== 'OpusTags') throw new Error('no OpusTags');
  const hv = new DataView(head.buffer, head.byteOffset);
  return {
    channels: head[9]!,
    preSkip: hv.getUint16(10, true),
    inputRate: hv.getUint32(12, true),
    packets,
    lastGranule,
    pages,
  };
}
