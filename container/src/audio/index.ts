// Audio encoding and resampling for the server's outputs.
export { floatToMulaw, floatToS16le, linearToMulaw, mulawToLinear } from './pcm.ts';
export { StreamingResampler } from './resample.ts';
export { wavHeader, WAV_HEADER_BYTES } from './wav.ts';
export type { WavFormat } from './wav.ts';
export { UtteranceEncoder, audioHeaders, bytesPerSample, effectiveSampleRate } from './encoder.ts';
export type { OutputAudio } from './encoder.ts';
