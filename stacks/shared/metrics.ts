// The metric names the stacks watch, in one place: what the TTS container publishes (endpoint
// layer: autoscaling, alarms, dashboard) and what the voice agent publishes (agent-runtime layer:
// alarms, dashboard), both as Embedded Metric Format log lines, plus the AgentCore Runtime's own
// vended metrics. The agent's names are its metrics contract (docs/design/observability.md).

/** The namespace both the container and the agent publish to (their METRICS_NAMESPACE default). */
export const METRICS_NAMESPACE = 'KokoroSpeech';

/** The container's load metrics (container/src/metrics/load-metrics.ts), dimensions EndpointName, VariantName. */
export const containerMetrics = {
  loadRatio: 'LoadRatio',
  refusals: 'Refusals',
  sessionsAdmitted: 'SessionsAdmitted',
  sessionCapacity: 'SessionCapacity',
} as const;

/** The agent's per-turn metrics, dimension set [Service]; TurnErrors has [Service, ErrorCode]. */
export const agentMetrics = {
  turns: 'Turns',
  turnDuration: 'TurnDuration',
  firstToken: 'FirstToken',
  firstAudio: 'FirstAudio',
  sentenceToAudio: 'SentenceToAudio',
  interruptions: 'Interruptions',
  ttsRefusals: 'TtsRefusals',
  callerDrops: 'CallerDrops',
  turnErrors: 'TurnErrors',
  // Voice turns (issue 30: the `listen` session), same line and dimension set; absent on typed turns.
  /** End of the caller's speech to the STT's final transcript (ms, one per voice turn). */
  voiceEndOfSpeechToTranscript: 'VoiceEndOfSpeechToTranscriptMs',
  /** End of the caller's speech to the answer's first audio sent (ms, one per voice turn): the latency felt. */
  voiceEndOfSpeechToFirstAudio: 'VoiceEndOfSpeechToFirstAudioMs',
  /** Caller speech that cut the agent's audio (Count). */
  bargeIns: 'BargeIns',
} as const;

/** The agent's dimension names: Service (METRICS_SERVICE, the runtime's name) and ErrorCode. */
export const AGENT_SERVICE_DIMENSION = 'Service';
export const AGENT_ERROR_CODE_DIMENSION = 'ErrorCode';

/**
 * ErrorCode values of TurnErrors: the turn contract's in-turn codes (docs/contracts/turn.md, Error
 * codes), `tts_sentence` (one sentence refused by the container, the turn went on) and `other`
 * (anything else, so that the set stays bounded).
 */
export const TURN_ERROR_CODES = [
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

/**
 * The codes the error-rate alarm counts: faults of the service. Left out: `unknown_voice` (the
 * caller asked for a voice that does not exist) and `stream_limit` (the caller's stream reached
 * its 59 minutes, by design). Nine codes plus Turns is also CloudWatch's limit of 10 metrics in one
 * alarm's math.
 */
export const FAULT_ERROR_CODES = [
  'llm_error',
  'llm_unauthorized',
  'llm_timeout',
  'tts_unavailable',
  'tts_overloaded',
  'timeout',
  'internal',
  'tts_sentence',
  'other',
] as const satisfies readonly (typeof TURN_ERROR_CODES)[number][];

/**
 * AgentCore Runtime's vended metrics: namespace and the dimension naming one runtime, as the AWS
 * CDK's Runtime metric helpers select them (aws/aws-cdk,
 * packages/aws-cdk-lib/aws-bedrockagentcore/lib/runtime/runtime-base.ts: `AWS/Bedrock-AgentCore`,
 * `Resource` = the runtime ARN, with further dimensions `Operation` and `Name`). The AgentCore
 * guide names the metrics (https://docs.aws.amazon.com/bedrock-agentcore/latest/devguide/observability-runtime-metrics.html)
 * but not the dimensions: queries here match `Resource` and ignore the rest (inferred; checked at
 * the first deploy, stacks/README.md).
 */
export const AGENTCORE_NAMESPACE = 'AWS/Bedrock-AgentCore';
export const AGENTCORE_RESOURCE_DIMENSION = 'Resource';
export const AGENTCORE_INVOCATIONS = 'Invocations';
