// FLAC as it is made: libFLAC built with emscripten by libflacjs (MIT wrapper; libFLAC is BSD:
// docs/design/openai-formats.md). Its asm.js build: the WebAssembly build fetch()es its .wasm by
// path under Node 18+ and fails, and asm.js encodes as fast here (docs/benchmarks/openai-formats.md).
// The header goes out first with the total length unknown (0, which the format allows), since a
// stream cannot seek back to fill it in.
import createFlac from 'libflacjs';
import type { StreamEncoder } from './stream-encoder.ts';

/** libFLAC's default compression level. */
export const FLAC_LEVEL = 5;

type Flac = ReturnType<typeof createFlac>;
let library: Promise<Flac> | undefined;
function flacLibrary(): Promise<Flac> {
  library ??= new Promise((resolve) => {
    const flac = createFlac('min');
    if (flac.isReady()) resolve(flac);
    else flac.on('ready', () => resolve(flac));
  });
  return library;
}

export async function createFlacStream(sampleRate: number): Promise<StreamEncoder> {
  const flac = await flacLibrary();
  const encoder = flac.create_libflac_encoder(sampleRate, 1, 16, FLAC_LEVEL, 0, false, 0);
  if (!encoder) throw new Error('libFLAC could not create an encoder');
  let out: Buffer[] = [];
  // Called synchronously from init, process and finish, with a view of the library's memory.
  const status = flac.init_encoder_stream(encoder, (data) => void out.push(Buffer.from(data)));
  if (status !== 0) {
    flac.FLAC__stream_encoder_delete(encoder);
    throw new Error(`libFLAC refused to start an encoder (init status ${status})`);
  }
  const take = (): Buffer => {
    const bytes = Buffer.concat(out);
    out = [];
    return bytes;
  };
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    flac.FLAC__stream_encoder_delete(encoder);
  };
  return {
    contentType: 'audio/flac',
    write(pcm) {
      if (!open) throw new Error('the FLAC encoder is closed');
      const view = new DataView(pcm.buffer, pcm.byteOffset, pcm.byteLength);
      const samples = Int32Array.from({ length: pcm.byteLength >> 1 }, (_, i) => view.getInt16(i * 2, true));
      if (!flac.FLAC__stream_encoder_process_interleaved(encoder, samples, samples.length)) {
        throw new Error('libFLAC failed to encode a block');
      }
      return take();
    },
    end() {
      if (!open) throw new Error('the FLAC encoder is closed');
      flac.FLAC__stream_encoder_finish(encoder);
      const rest = take();
      close();
      return rest;
    },
    close,
  };
}
