// The turn contract's Opus framing (documented in runtime/README.md): each audio chunk (an SSE
// `audio` event's data, a WebSocket binary frame) is one or more records, each
//   u16le packet bytes | u16le skip | u16le keep | the Opus packet
// where, of the samples the packet decodes to, the first `skip` are dropped and the next `keep`
// are played (the rest dropped). That removes the encoder's lookahead and each sentence's padding
// to a whole frame, so a sentence plays exactly the samples of its PCM rendition. Plain JavaScript,
// so that the page loads it as it is; the agent, the say CLI and the tests import the same file.

export const RECORD_HEADER_BYTES = 6;

/** Packs records ({packet: Uint8Array, skip, keep}) into one chunk. */
export function packOpusRecords(records) {
  const size = records.reduce((n, r) => n + RECORD_HEADER_BYTES + r.packet.byteLength, 0);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  let at = 0;
  for (const { packet, skip, keep } of records) {
    if (packet.byteLength > 0xffff || skip > 0xffff || keep > 0xffff) throw new RangeError('record field over 65535');
    view.setUint16(at, packet.byteLength, true);
    view.setUint16(at + 2, skip, true);
    view.setUint16(at + 4, keep, true);
    out.set(packet, at + RECORD_HEADER_BYTES);
    at += RECORD_HEADER_BYTES + packet.byteLength;
  }
  return out;
}

/** The records of one chunk; throws on a chunk that does not end on a record boundary. */
export function unpackOpusRecords(chunk) {
  const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  const records = [];
  let at = 0;
  while (at < chunk.byteLength) {
    if (at + RECORD_HEADER_BYTES > chunk.byteLength) throw new Error(`truncated Opus record header at byte ${at}`);
    const bytes = view.getUint16(at, true);
    const skip = view.getUint16(at + 2, true);
    const keep = view.getUint16(at + 4, true);
    const start = at + RECORD_HEADER_BYTES;
    if (start + bytes > chunk.byteLength) throw new Error(`truncated Opus packet at byte ${start}`);
    records.push({ packet: chunk.subarray(start, start + bytes), skip, keep });
    at = start + bytes;
  }
  return records;
}
