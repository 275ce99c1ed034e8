// Turn events sent to the caller (an external contract, documented in runtime/README.md).
// SSE: `event: <name>` + `data: <json without the type field>`. WebSocket: one JSON text frame
// per event with a `type` field; audio goes as binary frames after its `sentence` event instead of
// `audio` events.
import { z } from 'zod';
import { AUDIO_FORMATS, voiceInfoSchema, voiceSettingsSchema } from '@kokoro-speech/protocol';
import { SPOKEN_LANGUAGES, TURN_LANGUAGES } from './languages.ts';
import { MAX_PROMPT_CHARS } from './turn-limits.js';

export { MAX_PROMPT_CHARS };

/** Formats a turn may ask for: the container's, plus Opus (encoded by the agent; framing in runtime/README.md). */
export const TURN_FORMATS = [...AUDIO_FORMATS, 'opus'] as const;
export type TurnFormat = (typeof TURN_FORMATS)[number];

/**
 * A conversation's id: the AgentCore session header `X-Amzn-Bedrock-AgentCore-Runtime-Session-Id`
 * or a turn's `session_id` (AgentCore's own rule for runtime session ids: 33 to 256 characters).
 */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{33,256}$/;
export const SESSION_ID_RULE = "33-256 characters of letters, digits, '-' and '_'";
export const sessionIdSchema = z.string().regex(SESSION_ID_PATTERN, `must be ${SESSION_ID_RULE}`);
/** How much of a turn's audio the caller played, in ms from its first sample (a day at most). */
export const playedMsSchema = z.number().nonnegative().max(86_400_000);

export const startEventSchema = z.object({
  type: z.literal('start'),
  request_id: z.string(),
  sample_rate: z.number().int(),
  format: z.string(),
  /** The conversation this turn belongs to (absent for a one-shot turn). */
  session_id: z.string().optional(),
  /** Added compatibly, with format "opus": samples per frame, the decoder's lookahead (the first record's skip), bits/s. */
  opus: z.object({ frame_samples: z.number().int(), pre_skip: z.number().int(), bitrate: z.number().int() }).optional(),
});
export const textEventSchema = z.object({ type: z.literal('text'), delta: z.string() });
export const sentenceEventSchema = z.object({
  type: z.literal('sentence'),
  id: z.string(),
  index: z.number().int().nonnegative(),
  /** As shown to the caller (the LLM's text). */
  text: z.string(),
  /** As spoken (normalised for speech). */
  spoken: z.string(),
  /** When the piece was complete in the answer's text, in ms since the turn started (for timelines). */
  text_ms: z.number().nonnegative().optional(),
  /** Present (true) for a filler spoken while a tool ran: not part of the answer's text. */
  filler: z.literal(true).optional(),
});
export const audioEventSchema = z.object({
  type: z.literal('audio'),
  id: z.string(),
  seq: z.number().int().nonnegative(),
  /** base64 of the encoded audio chunk. */
  data: z.string(),
});
export const sentenceEndEventSchema = z.object({
  type: z.literal('sentence_end'),
  id: z.string(),
  duration_ms: z.number().nonnegative(),
  synthesis_ms: z.number().nonnegative(),
});
/** A word of a sentence as shown (the LLM's text) and when it is spoken. Added compatibly: sent
 *  only to callers that ask (`words: true`). */
export const turnWordSchema = z.object({
  text: z.string(),
  /** Offsets into the sentence's `text` (the caller's text), [start, end). */
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  /** On the caller's audio clock: ms from the turn's first audio sample (sentences back to back). */
  start_ms: z.number().nonnegative(),
  end_ms: z.number().nonnegative(),
});
export const wordsEventSchema = z.object({
  type: z.literal('words'),
  /** The sentence these words belong to; sent after some of its audio, before its sentence_end. */
  id: z.string(),
  words: z.array(turnWordSchema),
  /** True when the container estimated the times from token counts (its model has no durations). */
  estimated: z.boolean(),
});
export type TurnWord = z.infer<typeof turnWordSchema>;

/** The answer to a voice-list request (WebSocket `{"type":"voices"}`; POST `{"voices": true}` answers it as JSON). */
export const voicesEventSchema = z.object({
  type: z.literal('voices'),
  voices: z.array(voiceInfoSchema),
  /** The agent's default voice. */
  default: z.string(),
});

export const metricsEventSchema = z.object({
  type: z.literal('metrics'),
  first_token_ms: z.number().nullable(),
  first_sentence_ms: z.number().nullable(),
  first_audio_ms: z.number().nullable(),
  total_ms: z.number(),
  sentences: z.number().int().nonnegative(),
  audio_ms: z.number().nonnegative(),
});
/** A tool call of the agent: `started` when it begins, `ended` (with its duration and any error). */
export const toolEventSchema = z.object({
  type: z.literal('tool'),
  id: z.string(),
  name: z.string(),
  state: z.enum(['started', 'ended']),
  /** ms since the turn started. */
  started_ms: z.number().nonnegative(),
  ended_ms: z.number().nonnegative().optional(),
  duration_ms: z.number().nonnegative().optional(),
  /** What the tool's error result said (the model sees the same). */
  error: z.string().optional(),
});
export const errorEventSchema = z.object({ type: z.literal('error'), code: z.string(), message: z.string() });
export const doneEventSchema = z.object({
  type: z.literal('done'),
  /** Present (true) when the turn was cut short by the caller (cancel or disconnect). */
  cancelled: z.boolean().optional(),
});

/** Added compatibly (voice sessions): the agent opened the voice session `listen` asked for; audio may flow. */
export const listeningEventSchema = z.object({
  type: z.literal('listening'),
  input: z.object({ format: z.string(), sample_rate: z.number().int() }),
});
/** Added compatibly: what the customer said so far in this turn; `final: true` once, at the end of
 *  the customer's turn, with exactly the text the agent answers (the user's message). */
export const transcriptEventSchema = z.object({ type: z.literal('transcript'), text: z.string(), final: z.boolean() });
/** Added compatibly: the voice session ended (after `listen_end`): how many turns it started. */
export const listenEndEventSchema = z.object({ type: z.literal('listen_end'), turns: z.number().int().nonnegative() });

export const turnEventSchema = z.discriminatedUnion('type', [
  startEventSchema,
  textEventSchema,
  sentenceEventSchema,
  audioEventSchema,
  sentenceEndEventSchema,
  wordsEventSchema,
  voicesEventSchema,
  metricsEventSchema,
  toolEventSchema,
  errorEventSchema,
  doneEventSchema,
  listeningEventSchema,
  transcriptEventSchema,
  listenEndEventSchema,
]);
export type TurnEvent = z.infer<typeof turnEventSchema>;
export type MetricsEvent = z.infer<typeof metricsEventSchema>;
export type TurnEventName = TurnEvent['type'];
export type ToolEvent = z.infer<typeof toolEventSchema>;

/** Body of POST /invocations, and (with type "prompt") a WebSocket turn request. */
export const turnRequestSchema = voiceSettingsSchema
  .extend({
    prompt: z
      .string()
      .min(1, 'prompt must not be empty')
      .max(MAX_PROMPT_CHARS, `must be at most ${MAX_PROMPT_CHARS} characters`),
    mode: z.enum(['stream', 'batch']).optional(),
    /** The conversation (overrides the session header); absent with no header: a one-shot turn. */
    session_id: sessionIdSchema.optional(),
    /** The previous turn of this session: how much of its audio the caller played. */
    previous_played_ms: playedMsSchema.optional(),
    /** Added compatibly: `opus` as well as the container's formats. */
    format: z.enum(TURN_FORMATS).optional(),
    /** Added compatibly: true asks for `words` events. */
    words: z.boolean().optional(),
    /** Added compatibly: the language to answer in (ISO 639-1); without `voice`, its default voice speaks. */
    language: z
      .enum(TURN_LANGUAGES, {
        error: (issue) =>
          `must be one of ${SPOKEN_LANGUAGES.join(', ')} (ISO 639-1; ja and zh are refused: no G2P here), ` +
          `got ${JSON.stringify(issue.input)}`,
      })
      .optional(),
  })
  .strict();
export type TurnRequest = z.infer<typeof turnRequestSchema>;

/** The microphone audio a voice session takes (binary frames): 16 kHz mono signed 16-bit little-endian PCM. */
export const VOICE_INPUT_FORMATS = ['pcm_s16le'] as const;
export const VOICE_INPUT_SAMPLE_RATES = [16_000] as const;
export const voiceInputSchema = z
  .object({
    format: z.enum(VOICE_INPUT_FORMATS, { error: (i) => `must be pcm_s16le, got ${JSON.stringify(i.input)}` }),
    sample_rate: z.literal(VOICE_INPUT_SAMPLE_RATES, { error: (i) => `must be 16000, got ${JSON.stringify(i.input)}` }),
  })
  .strict();
export type VoiceInput = z.infer<typeof voiceInputSchema>;

/** Added compatibly: `{"type":"listen", ...}` opens a voice session with the turn request's settings
 *  (each voice turn is a turn request whose prompt is what the customer said). */
export const listenMessageSchema = turnRequestSchema
  .omit({ prompt: true, mode: true })
  .extend({ type: z.literal('listen'), input: voiceInputSchema.optional() })
  .strict();
export type ListenMessage = z.infer<typeof listenMessageSchema>;

export const wsClientMessageSchema = z.discriminatedUnion('type', [
  turnRequestSchema.extend({ type: z.literal('prompt') }).strict(),
  z
    .object({
      type: z.literal('cancel'),
      /** How much of the connection's most recent turn the caller played (also after its done). */
      played_ms: playedMsSchema.optional(),
      /** Optional check: the session of that turn. */
      session_id: sessionIdSchema.optional(),
    })
    .strict(),
  /** Added compatibly: asks for the voice list (answered with a `voices` event; no turn starts). */
  z.object({ type: z.literal('voices') }).strict(),
  listenMessageSchema,
  /** Added compatibly: ends the voice session (what was heard so far is still answered). */
  z.object({ type: z.literal('listen_end') }).strict(),
  /** Added compatibly: the caller heard the customer speak over the answer and stopped its playback
   *  after `played_ms` of the connection's most recent turn: a cancel that keeps what was heard. */
  z.object({ type: z.literal('barge_in'), played_ms: playedMsSchema.optional() }).strict(),
]);

/** Added compatibly: a POST /invocations body that asks for the voice list (answered as JSON, not SSE). */
export const voicesRequestSchema = z.object({ voices: z.literal(true) }).strict();
export type WsClientMessage = z.infer<typeof wsClientMessageSchema>;
