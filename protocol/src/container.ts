// Bidirectional protocol v1 between a TTS client and the Kokoro container (an external contract,
// documented in container/README.md). Both ends import these schemas: the server validates what
// arrives, clients validate what comes back.
import { z } from 'zod';
import { MAX_VOICE_CHARS, voiceSyntaxProblem } from './voice-blend.ts';

export const PROTOCOL_VERSION = 1;

/** `alaw` (G.711 A-law, 8 kHz) added compatibly: send it only to a server whose `ready.formats` lists it. */
export const AUDIO_FORMATS = ['pcm_s16le', 'wav', 'mulaw', 'alaw'] as const;
export type AudioFormat = (typeof AUDIO_FORMATS)[number];
export const SAMPLE_RATES = [24000, 16000, 8000] as const;
export type SampleRate = (typeof SAMPLE_RATES)[number];
export const MIN_SPEED = 0.5;
export const MAX_SPEED = 2.0;

const SPEED_RANGE = `must be between ${MIN_SPEED} and ${MAX_SPEED.toFixed(1)}`;
const speed = z.number().min(MIN_SPEED, SPEED_RANGE).max(MAX_SPEED, SPEED_RANGE);
const sampleRate = z.union(
  SAMPLE_RATES.map((r) => z.literal(r)) as [z.ZodLiteral<24000>, z.ZodLiteral<16000>, z.ZodLiteral<8000>],
);
const utteranceId = z.string().min(1).max(128);
/**
 * A W3C trace context parent (https://www.w3.org/TR/trace-context/#traceparent-header): the
 * client's span for this utterance. Added compatibly: send it only to a server whose `ready`
 * carries `tracing: true`. A malformed one is ignored (the server starts a new trace), never refused.
 */
const traceparent = z.string().max(256);

/** Voice and audio settings; every field optional (the session keeps what is not given). */
export const voiceSettingsSchema = z.object({
  /** A voice id, or (added compatibly) a weighted blend such as `af_bella(2)+af_sky(1)` (voice-blend.ts). */
  voice: z
    .string()
    .min(1)
    .max(MAX_VOICE_CHARS)
    .superRefine((voice, ctx) => {
      const problem = voiceSyntaxProblem(voice);
      if (problem) ctx.addIssue({ code: 'custom', message: problem.message });
    })
    .optional(),
  speed: speed.optional(),
  format: z.enum(AUDIO_FORMATS).optional(),
  sample_rate: sampleRate.optional(),
});
export type VoiceSettings = z.infer<typeof voiceSettingsSchema>;

// ---- client -> server -------------------------------------------------------------------------

export const configMessageSchema = voiceSettingsSchema
  .extend({
    type: z.literal('config'),
    /**
     * Added compatibly: true asks for `words` messages. Send it only to a server whose `ready`
     * carries `word_timings` (an older server refuses fields it does not know).
     */
    words: z.boolean().optional(),
  })
  .strict();
export const textMessageSchema = z
  .object({
    type: z.literal('text'),
    text: z.string(),
    id: utteranceId.optional(),
    /**
     * Added compatibly: true reads `text` as SSML (the subset in container/README.md). Send it only
     * to a server whose `ready` carries `ssml: true` (an older server refuses fields it does not know).
     */
    ssml: z.boolean().optional(),
    /** Added compatibly (see `traceparent` above): the parent of the server's spans for this utterance. */
    traceparent: traceparent.optional(),
  })
  .strict();
export const cancelMessageSchema = z.object({ type: z.literal('cancel') }).strict();
export const endMessageSchema = z.object({ type: z.literal('end') }).strict();

export const clientMessageSchema = z.discriminatedUnion('type', [
  configMessageSchema,
  textMessageSchema,
  cancelMessageSchema,
  endMessageSchema,
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;
export type ConfigMessage = z.infer<typeof configMessageSchema>;
export type TextMessage = z.infer<typeof textMessageSchema>;

// ---- server -> client -------------------------------------------------------------------------

/**
 * unsupported_language: the voice's language has no G2P here (Japanese, Mandarin); unspeakable_text:
 * the G2P gave a phoneme Kokoro's vocabulary lacks. Both fail one utterance; the session goes on.
 */
export const ERROR_CODES = [
  'invalid_message',
  'unknown_voice',
  'text_too_long',
  'overloaded',
  'internal',
  'unsupported_language',
  'unspeakable_text',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** What a voice is, as the voice list shows it (kokoro-js's published metadata where it has some). */
export const voiceInfoSchema = z.object({
  id: z.string(),
  name: z.string().optional(),
  /** BCP 47, e.g. en-us. */
  language: z.string(),
  gender: z.string().optional(),
  traits: z.string().optional(),
  /** kokoro-js's grades, A (best) to F. */
  target_quality: z.string().optional(),
  overall_grade: z.string().optional(),
  /** Why this voice's utterances fail with unsupported_language (its language has no G2P); absent: it speaks. */
  unavailable: z.string().optional(),
  source: z.enum(['kokoro-js', 'model-dir']),
});
export type VoiceInfo = z.infer<typeof voiceInfoSchema>;

export const readyMessageSchema = z.object({
  type: z.literal('ready'),
  protocol: z.literal(PROTOCOL_VERSION),
  sample_rate: sampleRate,
  format: z.enum(AUDIO_FORMATS),
  voices: z.array(z.string()),
  /** Added compatibly: what each voice is (servers before it send ids only). */
  voice_info: z.array(voiceInfoSchema).optional(),
  /** Added compatibly: `model` when word times come from the model's durations, `estimate` otherwise. */
  word_timings: z.enum(['model', 'estimate']).optional(),
  /** Added compatibly: true when `text` messages may carry `ssml: true`. */
  ssml: z.boolean().optional(),
  /** Added compatibly: true when `text` messages may carry a `traceparent` (servers before it refuse the field). */
  tracing: z.boolean().optional(),
  /** Added compatibly: the formats `config` may ask for (servers before it: pcm_s16le, wav, mulaw). */
  formats: z.array(z.string()).optional(),
});
export const audioStartMessageSchema = z.object({
  type: z.literal('audio_start'),
  id: z.string(),
  index: z.number().int().nonnegative(),
});
export const audioEndMessageSchema = z.object({
  type: z.literal('audio_end'),
  id: z.string(),
  index: z.number().int().nonnegative(),
  /** Samples sent for this utterance, at the session's sample rate. */
  samples: z.number().int().nonnegative(),
  duration_ms: z.number().nonnegative(),
  synthesis_ms: z.number().nonnegative(),
  queue_ms: z.number().nonnegative(),
});
/** One word of an utterance: where it is in the utterance's text, and when it is spoken. */
export const wordTimingSchema = z.object({
  text: z.string(),
  /** Offsets into the utterance's text (the `text` message), [start, end). */
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  /** From the utterance's first sample. */
  start_ms: z.number().nonnegative(),
  end_ms: z.number().nonnegative(),
});
export type WordTiming = z.infer<typeof wordTimingSchema>;

/**
 * Added compatibly to protocol v1: the words of the piece whose audio frames came just before it
 * (an utterance split into several model runs sends one per piece). Clients that do not know it
 * ignore it.
 */
export const wordsMessageSchema = z.object({
  type: z.literal('words'),
  id: z.string(),
  index: z.number().int().nonnegative(),
  words: z.array(wordTimingSchema),
  /** True when the times are estimated from token counts (the model has no durations output). */
  estimated: z.boolean(),
});

export const cancelledMessageSchema = z.object({ type: z.literal('cancelled'), ids: z.array(z.string()) });
export const errorMessageSchema = z.object({
  type: z.literal('error'),
  id: z.string().nullable(),
  code: z.enum(ERROR_CODES),
  message: z.string(),
  /** `overloaded` only: seconds to wait before trying again. */
  retry_after_s: z.number().nonnegative().optional(),
});
export const doneMessageSchema = z.object({ type: z.literal('done') });

export const serverMessageSchema = z.discriminatedUnion('type', [
  readyMessageSchema,
  audioStartMessageSchema,
  audioEndMessageSchema,
  wordsMessageSchema,
  cancelledMessageSchema,
  errorMessageSchema,
  doneMessageSchema,
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;
export type ReadyMessage = z.infer<typeof readyMessageSchema>;
export type AudioStartMessage = z.infer<typeof audioStartMessageSchema>;
export type AudioEndMessage = z.infer<typeof audioEndMessageSchema>;
export type WordsMessage = z.infer<typeof wordsMessageSchema>;
export type CancelledMessage = z.infer<typeof cancelledMessageSchema>;
export type ErrorMessage = z.infer<typeof errorMessageSchema>;

/** Largest binary audio frame the server sends. */
export const MAX_AUDIO_FRAME_BYTES = 32 * 1024;

/** The WebSocket path of the bidirectional stream (fixed by SageMaker). */
export const BIDI_PATH = '/invocations-bidirectional-stream';

// ---- POST /invocations -----------------------------------------------------------------------

export const invocationRequestSchema = voiceSettingsSchema
  .extend({
    text: z.string(),
    /** Added compatibly: true reads `text` as SSML (container/README.md). */
    ssml: z.boolean().optional(),
  })
  .strict();

// ---- POST /v1/phonemize ----------------------------------------------------------------------

export const phonemizeRequestSchema = z
  .object({
    text: z.string(),
    /** The voice whose language phonemises the text (default: the server's KOKORO_VOICE). */
    voice: z.string().min(1).max(64).optional(),
    /** Kokoro's language code (a, b, e, f, h, i, p), the first letter of a voice id; instead of `voice`. */
    language: z.string().length(1).optional(),
    ssml: z.boolean().optional(),
  })
  .strict();
export type PhonemizeRequest = z.infer<typeof phonemizeRequestSchema>;

/** One model run's input: a sentence (or part of one), or a pause. */
export const phonemizedPieceSchema = z.object({
  text: z.string(),
  phonemes: z.string(),
  /** Token ids sent to the model, without the pad (0) at each end. */
  tokens: z.array(z.number().int()),
  /** A pause (SSML <break>): its length; no tokens. */
  pause_ms: z.number().nonnegative().optional(),
  /** Speed factor of this piece (SSML <prosody rate>); absent: 1. */
  rate: z.number().positive().optional(),
});
export const phonemizeResponseSchema = z.object({
  /** The pieces' phonemes joined with spaces (Kokoro-FastAPI's /dev/phonemize field). */
  phonemes: z.string(),
  /** Every piece's tokens in order, pads excluded. */
  tokens: z.array(z.number().int()),
  pieces: z.array(phonemizedPieceSchema),
  /** The voice whose language was used (absent when the request named a language). */
  voice: z.string().optional(),
  /** The language's BCP 47 tag. */
  language: z.string(),
});
export type PhonemizeResponse = z.infer<typeof phonemizeResponseSchema>;
export type InvocationRequest = z.infer<typeof invocationRequestSchema>;

/** Error body of POST /invocations (same codes as on the WebSocket). */
export interface HttpErrorBody {
  /** `retry_after_s` (overloaded only) repeats Retry-After: SageMaker does not pass the header on. */
  error: { code: ErrorCode; message: string; retry_after_s?: number };
}
