// Audio codecs both ends of the turn contract use: its Opus framing (plain JavaScript, shared with
// the page), an Opus stream encoder (libopus in WebAssembly), and an Ogg Opus writer and reader.
export { packOpusRecords, unpackOpusRecords, RECORD_HEADER_BYTES, type OpusRecord } from './opus-framing.js';
export {
  OpusStreamEncoder,
  OPUS_BITRATE,
  OPUS_FRAME_MS,
  opusLookahead,
  type OpusRate,
  type OpusStreamInfo,
} from './opus-encoder.ts';
export { OggOpusWriter, readOggOpus } from './ogg-opus.ts';
export { OpusScriptDecoder } from './opus-decoder.ts';
