// The metrics contract: the names the container and the agent publish (as EMF lines) and the
// stacks read (autoscaling, alarms, dashboards). Spelled once, so that a rename on one side cannot
// blind the other. What each metric means: docs/design/observability.md.

/** The namespace both images publish to (their METRICS_NAMESPACE default). */
export const METRICS_NAMESPACE = 'KokoroSpeech';

/** The container's load metrics, dimensions EndpointName and VariantName. */
export const CONTAINER_METRICS = {
  sessions: 'SessionsAdmitted',
  capacity: 'SessionCapacity',
  loadRatio: 'LoadRatio',
  refusals: 'Refusals',
  refusedShare: 'RefusedShare',
  modelUtilization: 'ModelUtilization',
} as const;

/** The agent's per-turn metrics, dimension set [Service]; TurnErrors has [Service, ErrorCode]. */
export const AGENT_METRICS = {
  turns: 'Turns',
  turnDuration: 'TurnDuration',
  firstToken: 'FirstToken',
  firstAudio: 'FirstAudio',
  sentenceToAudio: 'SentenceToAudio',
  interruptions: 'Interruptions',
  ttsRefusals: 'TtsRefusals',
  callerDrops: 'CallerDrops',
  turnErrors: 'TurnErrors',
  // Voice turns only (absent on typed turns), same line and dimension set.
  /** End of the caller's speech to the STT's final transcript (ms). */
  voiceEndOfSpeechToTranscript: 'VoiceEndOfSpeechToTranscriptMs',
  /** End of the caller's speech to the answer's first audio sent (ms): the latency felt. */
  voiceEndOfSpeechToFirstAudio: 'VoiceEndOfSpeechToFirstAudioMs',
  /** Caller speech that cut the agent's audio (Count). */
  bargeIns: 'BargeIns',
} as const;

/** The agent's dimension names: Service (METRICS_SERVICE, the runtime's name) and ErrorCode. */
export const AGENT_DIMENSIONS = { service: 'Service', errorCode: 'ErrorCode' } as const;

/**
 * The ErrorCode values of TurnErrors: the turn contract's codes that fail a turn
 * (docs/contracts/turn.md, Error codes), `tts_sentence` (one sentence refused by the container,
 * the turn went on) and `other` (anything else, so that the set stays bounded).
 */
export const TURN_ERROR_DIMENSIONS = [
  'unknown_voice',
  'llm_error',
  'llm_unauthorized',
  'llm_timeout',
  'tts_unavailable',
  'tts_overloaded',
  'timeout',
  'stream_limit',
  'internal',
  'tts_sentence',
  'other',
] as const;
export type TurnErrorDimension = (typeof TURN_ERROR_DIMENSIONS)[number];
