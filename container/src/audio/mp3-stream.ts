// MP3 as it is made: LAME 3.100 built for WebAssembly by wasm-media-encoders (MIT wrapper; LAME is
// LGPL-2.0, loaded unmodified from its own package: docs/design/openai-formats.md). Constant
// 64 kbit/s mono: at 24 kHz that is MPEG-2 Layer III, 576 samples a frame.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createEncoder } from 'wasm-media-encoders';
import type { OpusRate } from '@kokoro-speech/protocol/audio';
import { s16leToFloat, type StreamEncoder } from './stream-encoder.ts';

export const MP3_BITRATE = 64;

/** A compiled WebAssembly module (this project's TypeScript libs carry no WebAssembly types). */
type CompiledModule = Exclude<Parameters<typeof createEncoder>[1], string | ArrayBuffer | Uint8Array>;
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<CompiledModule> } })
  .WebAssembly;

/** LAME, compiled once; each response instantiates its own (own memory, own state). */
let compiled: Promise<CompiledModule> | undefined;
function lameModule(): Promise<CompiledModule> {
  compiled ??= readFile(fileURLToPath(import.meta.resolve('wasm-media-encoders/wasm/mp3'))).then((bytes) =>
    wasm.compile(bytes),
  );
  return compiled;
}

export async function createMp3Stream(sampleRate: OpusRate): Promise<StreamEncoder> {
  const encoder = await createEncoder('audio/mpeg', await lameModule());
  // The output rate pinned to the input's: left alone, LAME may pick a lower one for the bitrate.
  encoder.configure({ channels: 1, sampleRate, outputSampleRate: sampleRate, bitrate: MP3_BITRATE });
  return {
    contentType: 'audio/mpeg',
    // The encoder's output is a view of its memory, valid until the next call: copied.
    write: (pcm) => Buffer.from(encoder.encode([s16leToFloat(pcm)])),
    end: () => Buffer.from(encoder.finalize()),
    // Nothing to free: the instance and its memory go with the last reference.
    close: () => {},
  };
}
