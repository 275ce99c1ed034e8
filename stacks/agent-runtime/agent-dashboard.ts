// The dashboard across agent and endpoint: what callers feel (first audio, errors by code,
// interruptions, drops; on voice turns, end of speech to transcript and to first audio, and
// barge-ins), what the agent saw of the TTS service (refused sessions), and the
// endpoint's load, refusals and instances. A pure function of names, so tests read its JSON.
import {
  AGENT_DIMENSIONS,
  AGENTCORE_METRICS,
  AGENT_METRICS,
  CONTAINER_METRICS,
  METRICS_NAMESPACE,
} from '../shared/metrics.ts';

export interface AgentDashboardArgs {
  /** The agent's Service dimension (METRICS_SERVICE: the runtime's name). */
  service: string;
  runtimeArn: string;
  endpointName: string;
  variantName: string;
  region: string;
  /** Drawn as a line on the first-audio graph: the p95 alarm's threshold. */
  firstAudioP95AlarmMs: number;
}

/** Searches the TurnErrors of one service, one line per ErrorCode (whatever codes appear). */
export const turnErrorsSearch = (service: string, period = 60): string =>
  `SEARCH('{${METRICS_NAMESPACE},${AGENT_DIMENSIONS.errorCode},${AGENT_DIMENSIONS.service}} MetricName="${AGENT_METRICS.turnErrors}" ${AGENT_DIMENSIONS.service}="${service}"', 'Sum', ${period})`;

/** AgentCore's Invocations of one runtime, whatever further dimensions AgentCore adds. */
export const invocationsSearch = (runtimeArn: string, period = 60): string =>
  `SEARCH('Namespace="${AGENTCORE_METRICS.namespace}" MetricName="${AGENTCORE_METRICS.invocations}" ${AGENTCORE_METRICS.resourceDimension}="${runtimeArn}"', 'Sum', ${period})`;

export function agentDashboardBody(a: AgentDashboardArgs): string {
  /** One of the agent's metrics at one statistic, labelled. */
  const agent = (metric: string, stat: string, label: string) => [
    METRICS_NAMESPACE,
    metric,
    AGENT_DIMENSIONS.service,
    a.service,
    { stat, label },
  ];
  const endpoint = ['EndpointName', a.endpointName, 'VariantName', a.variantName];
  const graph = (title: string, metrics: unknown[][], extra: Record<string, unknown> = {}) => ({
    title,
    region: a.region,
    view: 'timeSeries',
    stat: 'Sum',
    period: 60,
    metrics,
    ...extra,
  });
  // Two graphs a row, each half the dashboard's 24 columns wide and 6 rows high, in reading order.
  const graphs = [
    graph(
      'First audio (ms): prompt to the first audio sent to the caller',
      ['p50', 'p95', 'p99'].map((stat) => agent(AGENT_METRICS.firstAudio, stat, stat)),
      { annotations: { horizontal: [{ label: 'p95 alarm', value: a.firstAudioP95AlarmMs }] } },
    ),
    graph('Turn timings p95 (ms)', [
      agent(AGENT_METRICS.firstToken, 'p95', 'first token'),
      agent(AGENT_METRICS.sentenceToAudio, 'p95', 'sentence to audio'),
      agent(AGENT_METRICS.turnDuration, 'p95', 'turn duration'),
    ]),
    graph('Turns and turn errors by code', [
      agent(AGENT_METRICS.turns, 'Sum', 'turns'),
      [{ expression: turnErrorsSearch(a.service), id: 'errors', label: '' }],
    ]),
    graph('Interruptions, refused TTS sessions, callers gone', [
      agent(AGENT_METRICS.interruptions, 'Sum', 'interruptions'),
      agent(AGENT_METRICS.ttsRefusals, 'Sum', 'TTS sessions refused'),
      agent(AGENT_METRICS.callerDrops, 'Sum', 'caller drops'),
    ]),
    graph('AgentCore invocations and finished turns', [
      [{ expression: invocationsSearch(a.runtimeArn), id: 'invocations', label: 'invocations' }],
      agent(AGENT_METRICS.turns, 'Sum', 'turns'),
    ]),
    graph('Endpoint: load ratio and sessions refused (the containers’ metrics)', [
      [METRICS_NAMESPACE, CONTAINER_METRICS.loadRatio, ...endpoint, { stat: 'Average', yAxis: 'right' }],
      [METRICS_NAMESPACE, CONTAINER_METRICS.refusals, ...endpoint, { stat: 'Sum' }],
    ]),
    graph('Endpoint: instances reporting', [
      [
        '/aws/sagemaker/Endpoints',
        'CPUUtilization',
        ...endpoint,
        { stat: 'SampleCount', label: 'instances reporting' },
      ],
    ]),
    graph('Voice turns (ms): end of the caller’s speech to the final transcript and to the first audio', [
      ...['p50', 'p95'].map((stat) =>
        agent(AGENT_METRICS.voiceEndOfSpeechToFirstAudio, stat, `to first audio ${stat}`),
      ),
      ...['p50', 'p95'].map((stat) => agent(AGENT_METRICS.voiceEndOfSpeechToTranscript, stat, `to transcript ${stat}`)),
    ]),
    graph('Voice turns: barge-ins (the caller’s speech cut the answer)', [
      agent(AGENT_METRICS.bargeIns, 'Sum', 'barge-ins'),
    ]),
  ];
  return JSON.stringify({
    widgets: graphs.map((properties, i) => ({
      type: 'metric',
      x: (i % 2) * 12,
      y: Math.floor(i / 2) * 6,
      width: 12,
      height: 6,
      properties,
    })),
  });
}
