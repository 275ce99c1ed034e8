// Every default of the agent's own configuration, said once: the entry point (config.ts), the
// server and npm start read them from here. The layers keep the defaults of what they alone apply
// (LLM timeouts, TTS retry budgets, tool limits, session bounds: llm/, tts/, tools/, conversation/).
import type { VoiceDefaults } from '../pipeline/types.ts';

/** Where the agent's entry point listens (HOST, PORT); startAgentServer itself defaults to loopback. */
export const DEFAULT_LISTEN = { host: '0.0.0.0', port: 8080 } as const;

export const DEFAULT_LOG_LEVEL = 'info';

/** Voice settings of a request that gives none (KOKORO_VOICE, KOKORO_SPEED, AUDIO_FORMAT, AUDIO_SAMPLE_RATE). */
export const DEFAULT_VOICE: VoiceDefaults = { voice: 'af_heart', speed: 1, format: 'pcm_s16le', sample_rate: 24000 };

export interface AgentLimits {
  /** Turns running at once (SSE and WebSocket together); more get 503 `busy`. */
  maxConcurrentTurns: number;
  /** Largest POST body and WebSocket message, in bytes. */
  maxRequestBytes: number;
  /** A turn still running after this long ends with a `timeout` error. */
  maxTurnMs: number;
}

/** MAX_CONCURRENT_TURNS, MAX_REQUEST_BYTES (64 KiB), MAX_TURN_SECONDS (300 s). */
export const DEFAULT_LIMITS: AgentLimits = { maxConcurrentTurns: 16, maxRequestBytes: 64 * 1024, maxTurnMs: 300_000 };

/** Slow callers (server/caller-flow.ts). */
export interface FlowLimits {
  /** Bytes waiting to be written to the caller above which it is behind (CALLER_BUFFER_BYTES). */
  bufferBytes: number;
  /** A caller that takes nothing for this long while the turn waits for it is dropped (CALLER_STALL_SECONDS). */
  stallMs: number;
}

/**
 * 64 KiB and 30 s. The mark is small on purpose: the operating system's socket buffers hold the
 * backlog beyond it (megabytes on loopback), and Node hands what waits to the OS as one write that
 * completes only when all of it is taken, so the mark is also the granularity at which a slow
 * reader is seen to progress: a caller must take this much every stall bound. Progress is seen in
 * the operating system's units: a write completes when the kernel has room again, and it signals
 * room only once about a third of the socket's send buffer is free (megabytes on loopback), so a
 * caller has to read about a megabyte per stall bound to be seen alive; PCM at 24 kHz played in
 * real time over SSE reads 64 KB/s.
 */
export const DEFAULT_FLOW_LIMITS: FlowLimits = { bufferBytes: 64 * 1024, stallMs: 30_000 };

/** What the agent's WebSocket sends a caller, within AgentCore's quotas (docs/design/agentcore-contract.md#limits). */
export interface WsFrameLimits {
  /** Largest payload of one frame the agent sends, in bytes (WS_MAX_FRAME_BYTES). */
  maxFrameBytes: number;
  /** Frames per second per connection at most, bursts included (WS_MAX_FRAMES_PER_SECOND). */
  maxFramesPerSecond: number;
}

/** AgentCore's WebSocket quotas: 32 KB a frame (taken as 32,768 bytes of payload), 250 frames per second. */
export const DEFAULT_WS_FRAME_LIMITS: WsFrameLimits = { maxFrameBytes: 32_768, maxFramesPerSecond: 250 };

/** How long a caller's stream may last (server/stream-limits.ts). */
export interface StreamLimits {
  /** An SSE turn or a WebSocket connection open this long ends with `stream_limit` (MAX_STREAM_SECONDS). */
  maxStreamMs: number;
  /** A WebSocket connection with no message and no turn for this long is closed with `session_idle` (WS_IDLE_SECONDS). */
  wsIdleMs: number;
}

/**
 * 59 minutes and 890 s: a minute inside AgentCore's 60-minute streaming limit, so that the error and
 * `done` reach the caller before AgentCore cuts the stream; 10 s inside its default idle session
 * timeout (900 s), so that the caller hears why before AgentCore ends the session.
 */
export const DEFAULT_STREAM_LIMITS: StreamLimits = { maxStreamMs: 3_540_000, wsIdleMs: 890_000 };

export const DEFAULT_SYSTEM_PROMPT =
  'You are a helpful voice assistant. Your answers are spoken aloud as they are written: ' +
  'start with a short, direct sentence, then use plain sentences. Avoid markdown, lists, tables, ' +
  'code and URLs unless the user asks for them.';

/** How long a tool must run, with nothing playing, before the filler (TOOL_FILLER_AFTER_MS). */
export const DEFAULT_FILLER_AFTER_MS = 1500;
