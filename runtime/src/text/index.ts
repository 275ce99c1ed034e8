// Public names of the text stage: streamed LLM text -> speakable pieces -> what Kokoro speaks.
export {
  SentenceSegmenter,
  SEGMENTER_DEFAULTS,
  SEGMENTER_LANGUAGES,
  type Piece,
  type SegmenterLanguage,
  type SegmenterOptions,
} from './segmenter.ts';
export {
  normalizeForSpeech,
  sourceRange,
  LANGUAGES,
  type Language,
  type NormalizeOptions,
  type NormalizedText,
  type SpeechSegment,
} from './normalize.ts';
