// The dashboard across agent and endpoint: what callers feel (first audio, errors by code,
// interruptions, drops; on voice turns, end of speech to transcript and to first audio, and
// barge-ins), what the agent saw of the TTS service (refused sessions), and the
// endpoint's load, refusals and instances. A pure function of names, so tests read its JSON.
import {
  AGENT_ERROR_CODE_DIMENSION,
  AGENT_SERVICE_DIMENSION,
  AGENTCORE_INVOCATIONS,
  AGENTCORE_NAMESPACE,
  AGENTCORE_RESOURCE_DIMENSION,
  agentMetrics,
  containerMetrics,
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
  `SEARCH('{${METRICS_NAMESPACE},${AGENT_ERROR_CODE_DIMENSION},${AGENT_SERVICE_DIMENSION}} MetricName="${agentMetrics.turnErrors}" ${AGENT_SERVICE_DIMENSION}="${service}"', 'Sum', ${period})`;

/** AgentCore's Invocations of one runtime, whatever further dimensions AgentCore adds. */
export const invocationsSearch = (runtimeArn: string, period = 60): string =>
  `SEARCH('Namespace="${AGENTCORE_NAMESPACE}" MetricName="${AGENTCORE_INVOCATIONS}" ${AGENTCORE_RESOURCE_DIMENSION}="${runtimeArn}"', 'Sum', ${period})`;

export function agentDashboardBody(a: AgentDashboardArgs): string {
  const agent = (metric: string, options: Record<string, unknown>) => [
    METRICS_NAMESPACE,
    metric,
    AGENT_SERVICE_DIMENSION,
    a.service,
    options,
  ];
  const endpoint = ['EndpointName', a.endpointName, 'VariantName', a.variantName];
  const widget = (title: string, metrics: unknown[][], y: number, x: number, extra: Record<string, unknown> = {}) => ({
    type: 'metric',
    x,
    y,
    width: 12,
    height: 6,
    properties: { title, region: a.region, view: 'timeSeries', stat: 'Sum', period: 60, metrics, ...extra },
  });
  return JSON.stringify({
    widgets: [
      widget(
        'First audio (ms): prompt to the first audio sent to the caller',
        ['p50', 'p95', 'p99'].map((stat) => agent(agentMetrics.firstAudio, { stat, label: stat })),
        0,
        0,
        { annotations: { horizontal: [{ label: 'p95 alarm', value: a.firstAudioP95AlarmMs }] } },
      ),
      widget(
        'Turn timings p95 (ms)',
        [
          agent(agentMetrics.firstToken, { stat: 'p95', label: 'first token' }),
          agent(agentMetrics.sentenceToAudio, { stat: 'p95', label: 'sentence to audio' }),
          agent(agentMetrics.turnDuration, { stat: 'p95', label: 'turn duration' }),
        ],
        0,
        12,
      ),
      widget(
        'Turns and turn errors by code',
        [
          agent(agentMetrics.turns, { stat: 'Sum', label: 'turns' }),
          [{ expression: turnErrorsSearch(a.service), id: 'errors', label: '' }],
        ],
        6,
        0,
      ),
      widget(
        'Interruptions, refused TTS sessions, callers gone',
        [
          agent(agentMetrics.interruptions, { stat: 'Sum', label: 'interruptions' }),
          agent(agentMetrics.ttsRefusals, { stat: 'Sum', label: 'TTS sessions refused' }),
          agent(agentMetrics.callerDrops, { stat: 'Sum', label: 'caller drops' }),
        ],
        6,
        12,
      ),
      widget(
        'AgentCore invocations and finished turns',
        [
          [{ expression: invocationsSearch(a.runtimeArn), id: 'invocations', label: 'invocations' }],
          agent(agentMetrics.turns, { stat: 'Sum', label: 'turns' }),
        ],
        12,
        0,
      ),
      widget(
        'Endpoint: load ratio and sessions refused (the containers’ metrics)',
        [
          [METRICS_NAMESPACE, containerMetrics.loadRatio, ...endpoint, { stat: 'Average', yAxis: 'right' }],
          [METRICS_NAMESPACE, containerMetrics.refusals, ...endpoint, { stat: 'Sum' }],
        ],
        12,
        12,
      ),
      widget(
        'Voice turns (ms): end of the caller’s speech to the final transcript and to the first audio',
        [
          ...['p50', 'p95'].map((stat) =>
            agent(agentMetrics.voiceEndOfSpeechToFirstAudio, { stat, label: `to first audio ${stat}` }),
          ),
          ...['p50', 'p95'].map((stat) =>
            agent(agentMetrics.voiceEndOfSpeechToTranscript, { stat, label: `to transcript ${stat}` }),
          ),
        ],
        18,
        12,
      ),
      widget(
        'Voice turns: barge-ins (the caller’s speech cut the answer)',
        [agent(agentMetrics.bargeIns, { stat: 'Sum', label: 'barge-ins' })],
        24,
        0,
      ),
      widget(
        'Endpoint: instances reporting',
        [
          [
            '/aws/sagemaker/Endpoints',
            'CPUUtilization',
            ...endpoint,
            { stat: 'SampleCount', label: 'instances reporting' },
          ],
        ],
        18,
        0,
      ),
    ],
  });
}
