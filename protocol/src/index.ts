// Protocol v1 between TTS clients and the Kokoro container: zod schemas, types and constants.
// Its own package so that the agent's image carries these schemas without the model stack.
export * from './messages.ts';
