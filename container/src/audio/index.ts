// Audio encoding and resampling for the server's outputs.
export {
  alawToLinear,
  floatToAlaw,
  floatToMulaw,
  floatToS16le,
  linearToAlaw,
  linearToMulaw,
  mulawToLinear,
} from './pcm.ts';
export { StreamingResampler } from './resample.ts';
export { wavHeader, WAV_HEADER_BYTES } from './wav.ts';
export type { WavFormat } from './wav.ts';
export { UtteranceEncoder, audioHeaders, bytesPerSample, effectiveSampleRate, isG711 } from './encoder.ts';
export type { OutputAudio } from './encoder.ts';
