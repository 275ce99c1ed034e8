// The metric names the stacks watch: what the TTS container publishes (endpoint layer: autoscaling,
// alarms, dashboard) and what the voice agent publishes (agent-runtime layer: alarms, dashboard),
// both as Embedded Metric Format log lines, spelled once in protocol/ for the images and the stacks;
// plus the AgentCore Runtime's own vended metrics. docs/design/observability.md.
import { TURN_ERROR_DIMENSIONS, type TurnErrorDimension } from '@kokoro-speech/protocol/metric-names';

// The container's load metrics (dimensions EndpointName, VariantName); the agent's per-turn ones
// and their dimension names (Service: METRICS_SERVICE, the runtime's name; ErrorCode).
export {
  AGENT_DIMENSIONS,
  AGENT_METRICS,
  CONTAINER_METRICS,
  METRICS_NAMESPACE,
} from '@kokoro-speech/protocol/metric-names';

/** ErrorCode values that are the caller's doing, not faults of the service (see FAULT_ERROR_CODES). */
export const CALLER_ERROR_CODES: readonly TurnErrorDimension[] = ['unknown_voice', 'stream_limit'];

/**
 * The codes the error-rate alarm counts: faults of the service. Left out: `unknown_voice` (the
 * caller asked for a voice that does not exist) and `stream_limit` (the caller's stream reached
 * its 59 minutes, by design). Nine codes plus Turns is also CloudWatch's limit of 10 metrics in one
 * alarm's math.
 */
export const FAULT_ERROR_CODES = TURN_ERROR_DIMENSIONS.filter((code) => !CALLER_ERROR_CODES.includes(code));

/**
 * AgentCore Runtime's vended metrics: namespace and the dimension naming one runtime, as the AWS
 * CDK's Runtime metric helpers select them (aws/aws-cdk,
 * packages/aws-cdk-lib/aws-bedrockagentcore/lib/runtime/runtime-base.ts: `AWS/Bedrock-AgentCore`,
 * `Resource` = the runtime ARN, with further dimensions `Operation` and `Name`). The AgentCore
 * guide names the metrics (https://docs.aws.amazon.com/bedrock-agentcore/latest/devguide/observability-runtime-metrics.html)
 * but not the dimensions: queries here match `Resource` and ignore the rest (inferred; checked at
 * the first deploy, stacks/README.md).
 */
export const AGENTCORE_METRICS = {
  namespace: 'AWS/Bedrock-AgentCore',
  resourceDimension: 'Resource',
  invocations: 'Invocations',
} as const;
