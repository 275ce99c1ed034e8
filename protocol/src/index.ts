// The contracts both ends of a connection import, as zod schemas, types and constants: protocol v1
// between TTS clients and the Kokoro container (container.ts), and the turn contract between
// callers and the agent (turn.ts). Its own package so that each image carries these schemas
// without the other side's code.
export * from './container.ts';
export * from './turn.ts';
export * from './languages.ts';
export * from './voice-letters.ts';
export * from './voice-blend.ts';
