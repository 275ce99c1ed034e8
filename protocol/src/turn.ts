// Turn events sent to the caller (an external contract, documented in runtime/README.md).
// SSE: `event: <name>` + `data: <json without the type field>`. WebSocket: one JSON text frame
// per event with a `type` field; audio goes as binary frames after its `sentence` event instead of
// `audio` events.
import { z } from 'zod';
import { voiceSettingsSchema } from '@kokoro-speech/protocol';

export const startEventSchema = z.object({
  type: z.literal('start'),
  request_id: z.string(),
  sample_rate: z.number().int(),
  format: z.string(),
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
export const metricsEventSchema = z.object({
  type: z.literal('metrics'),
  first_token_ms: z.number().nullable(),
  first_sentence_ms: z.number().nullable(),
  first_audio_ms: z.number().nullable(),
  total_ms: z.number(),
  sentences: z.number().int().nonnegative(),
  audio_ms: z.number().nonnegative(),
});
export const errorEventSchema = z.object({ type: z.literal('error'), code: z.string(), message: z.string() });
export const doneEventSchema = z.object({
  type: z.literal('done'),
  /** Present (true) when the turn was cut short by the caller (cancel or disconnect). */
  cancelled: z.boolean().optional(),
});

export const turnEventSchema = z.discriminatedUnion('type', [
  startEventSchema,
  textEventSchema,
  sentenceEventSchema,
  audioEventSchema,
  sentenceEndEventSchema,
  metricsEventSchema,
  errorEventSchema,
  doneEventSchema,
]);
export type TurnEvent = z.infer<typeof turnEventSchema>;
export type MetricsEvent = z.infer<typeof metricsEventSchema>;
export type TurnEventName = TurnEvent['type'];

/** Body of POST /invocations, and (with type "prompt") a WebSocket turn request. */
export const turnRequestSchema = voiceSettingsSchema
  .extend({
    prompt: z.string().min(1, 'prompt must not be empty').max(20_000),
    mode: z.enum(['stream', 'batch']).optional(),
  })
  .strict();
export type TurnRequest = z.infer<typeof turnRequestSchema>;

export const wsClientMessageSchema = z.discriminatedUnion('type', [
  turnRequestSchema.extend({ type: z.literal('prompt') }).strict(),
  z.object({ type: z.literal('cancel') }).strict(),
]);
export type WsClientMessage = z.infer<typeof wsClientMessageSchema>;
