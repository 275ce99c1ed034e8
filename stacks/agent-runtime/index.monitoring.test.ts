// agent-runtime under Pulumi mocks, default observability settings: the dashboard across agent and
// endpoint, the three alarms (first audio p95, error rate, missing metrics) with the endpoint's
// alarm topic, and the runtime's log groups. Metric names are written out here as the agent's
// metrics contract states them (docs/design/observability.md), not imported, so a typo on either
// side fails; the ErrorCode values are the contract's list (its spelling is pinned by the agent's tests).
import { beforeAll, describe, expect, test } from '@jest/globals';
import { LOAD_METRIC_NAMESPACE, LOAD_RATIO_METRIC, REFUSALS_METRIC } from '../endpoint/autoscaling.ts';
import { TURN_ERROR_DIMENSIONS } from '@kokoro-speech/protocol/metric-names';
import { endpointOutputs } from '../shared/outputs.ts';
import { policyDocumentsOf } from '../testing/iam-reference.ts';
import { policyViolations } from '../testing/policy-check.ts';
import { account, fakeOutputs, organization, region, type ProgramRun } from '../testing/mocks.ts';
import { FOUNDATION_STACK, agentFoundation, runAgentRuntime } from '../testing/agent-runtime-run.ts';

const topic = `arn:aws:sns:${region}:${account}:oncall`;
const runtimeArn = `arn:aws:bedrock-agentcore:${region}:${account}:runtime/kokoro_dev_agent-AbCdE12345`;
const service = { Service: 'kokoro_dev_agent' };
let run: ProgramRun;

beforeAll(async () => {
  run = await runAgentRuntime({
    config: { inboundAuth: 'iam' },
    stackOutputs: {
      [FOUNDATION_STACK]: agentFoundation(),
      [`${organization}/kokoro-endpoint/dev`]: fakeOutputs(endpointOutputs, {
        endpointName: 'kokoro-dev-tts',
        variantName: 'AllTraffic',
        alarmTopicArn: topic,
      }),
    },
  });
});

const alarm = (name: string) => run.find('aws:cloudwatch/metricAlarm:MetricAlarm', name).inputs;

describe('dashboard', () => {
  let body: { widgets: { properties: { title: string; region: string; metrics: unknown[][] } }[] };
  let metrics: unknown[][];
  beforeAll(() => {
    const dashboard = run.find('aws:cloudwatch/dashboard:Dashboard').inputs;
    expect(dashboard.dashboardName).toBe('kokoro-dev-agent');
    body = JSON.parse(dashboard.dashboardBody);
    metrics = body.widgets.flatMap((w) => w.properties.metrics);
  });

  test('every widget is in the stack region', () => {
    expect(new Set(body.widgets.map((w) => w.properties.region))).toEqual(new Set([region]));
  });

  test("the agent's metrics: the contract's names, namespace KokoroSpeech, dimension Service = the runtime's name", () => {
    const agent = metrics.filter((m) => m[0] === 'KokoroSpeech' && m[2] === 'Service');
    expect(agent.every((m) => m[3] === 'kokoro_dev_agent' && m.length === 5)).toBe(true);
    expect([...new Set(agent.map((m) => m[1]))].sort()).toEqual([
      'BargeIns',
      'CallerDrops',
      'FirstAudio',
      'FirstToken',
      'Interruptions',
      'SentenceToAudio',
      'TtsRefusals',
      'TurnDuration',
      'Turns',
      'VoiceEndOfSpeechToFirstAudioMs',
      'VoiceEndOfSpeechToTranscriptMs',
    ]);
    const firstAudio = agent.filter((m) => m[1] === 'FirstAudio').map((m) => (m[4] as { stat: string }).stat);
    expect(firstAudio).toEqual(['p50', 'p95', 'p99']);
    const sums = agent.filter((m) => (m[4] as { stat: string }).stat === 'Sum').map((m) => m[1]);
    expect(new Set(sums)).toEqual(new Set(['Turns', 'Interruptions', 'TtsRefusals', 'CallerDrops', 'BargeIns']));
  });

  test('voice turns: end of speech to first audio and to the final transcript (p50, p95, ms), barge-ins summed', () => {
    const voice = (name: string) =>
      metrics.filter((m) => m[0] === 'KokoroSpeech' && m[1] === name).map((m) => (m[4] as { stat: string }).stat);
    expect({
      VoiceEndOfSpeechToFirstAudioMs: voice('VoiceEndOfSpeechToFirstAudioMs'),
      VoiceEndOfSpeechToTranscriptMs: voice('VoiceEndOfSpeechToTranscriptMs'),
      BargeIns: voice('BargeIns'),
    }).toEqual({
      VoiceEndOfSpeechToFirstAudioMs: ['p50', 'p95'],
      VoiceEndOfSpeechToTranscriptMs: ['p50', 'p95'],
      BargeIns: ['Sum'],
    });
    const titles = body.widgets.map((w) => w.properties.title);
    expect(titles).toContain('Voice turns: barge-ins (the caller’s speech cut the answer)');
  });

  test('turn errors by code: a SEARCH over the [ErrorCode, Service] dimension set of this service', () => {
    expect(metrics).toContainEqual([
      {
        expression: `SEARCH('{KokoroSpeech,ErrorCode,Service} MetricName="TurnErrors" Service="kokoro_dev_agent"', 'Sum', 60)`,
        id: 'errors',
        label: '',
      },
    ]);
  });

  test("AgentCore's invocations of this runtime beside the turns", () => {
    expect(metrics).toContainEqual([
      {
        expression: `SEARCH('Namespace="AWS/Bedrock-AgentCore" MetricName="Invocations" Resource="${runtimeArn}"', 'Sum', 60)`,
        id: 'invocations',
        label: 'invocations',
      },
    ]);
  });

  test("the endpoint's LoadRatio and Refusals (the names the endpoint layer scales and alarms on) and its instances", () => {
    const dims = ['EndpointName', 'kokoro-dev-tts', 'VariantName', 'AllTraffic'];
    expect([LOAD_METRIC_NAMESPACE, LOAD_RATIO_METRIC, REFUSALS_METRIC]).toEqual([
      'KokoroSpeech',
      'LoadRatio',
      'Refusals',
    ]);
    expect(metrics).toContainEqual(['KokoroSpeech', 'LoadRatio', ...dims, { stat: 'Average', yAxis: 'right' }]);
    expect(metrics).toContainEqual(['KokoroSpeech', 'Refusals', ...dims, { stat: 'Sum' }]);
    expect(metrics).toContainEqual([
      '/aws/sagemaker/Endpoints',
      'CPUUtilization',
      ...dims,
      { stat: 'SampleCount', label: 'instances reporting' },
    ]);
  });
});

describe('alarms', () => {
  test('first audio: p95 of FirstAudio above the default 2000 ms in 3 of 5 minutes; no turns is not breaching', () => {
    expect(alarm('kokoro-dev-agent-first-audio')).toMatchObject({
      namespace: 'KokoroSpeech',
      metricName: 'FirstAudio',
      dimensions: service,
      extendedStatistic: 'p95',
      period: 60,
      evaluationPeriods: 5,
      datapointsToAlarm: 3,
      comparisonOperator: 'GreaterThanThreshold',
      threshold: 2000,
      treatMissingData: 'notBreaching',
      alarmActions: [topic],
      okActions: [topic],
    });
  });

  test('error rate: the nine fault codes over Turns, 0 below 10 turns per 5 minutes, above 5 %', () => {
    const inputs = alarm('kokoro-dev-agent-error-rate');
    expect(inputs).toMatchObject({
      comparisonOperator: 'GreaterThanThreshold',
      threshold: 0.05,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      treatMissingData: 'notBreaching',
      alarmActions: [topic],
    });
    const queries = inputs.metricQueries as { id: string; metric?: any; expression?: string; returnData: boolean }[];
    const withMetric = queries.filter((q) => q.metric !== undefined);
    expect(withMetric.length).toBeLessThanOrEqual(10); // CloudWatch's limit per alarm
    expect(withMetric[0]).toEqual({
      id: 'turns',
      metric: { namespace: 'KokoroSpeech', metricName: 'Turns', dimensions: service, period: 300, stat: 'Sum' },
      returnData: false,
    });
    const codes = withMetric.slice(1).map((q) => {
      expect(q.metric).toMatchObject({ namespace: 'KokoroSpeech', metricName: 'TurnErrors', period: 300, stat: 'Sum' });
      expect(Object.keys(q.metric.dimensions).sort()).toEqual(['ErrorCode', 'Service']);
      expect(q.metric.dimensions.Service).toBe('kokoro_dev_agent');
      return q.metric.dimensions.ErrorCode;
    });
    // Every ErrorCode the agent can publish but the caller's own two (a voice it lacks, the 59-minute stream).
    expect(codes).toEqual(TURN_ERROR_DIMENSIONS.filter((code) => code !== 'unknown_voice' && code !== 'stream_limit'));
    expect(codes).toHaveLength(9); // with Turns, CloudWatch's 10 metrics in one alarm
    const sum = codes.map((_, i) => `FILL(e${i}, 0)`).join(' + ');
    expect(queries.filter((q) => q.returnData)).toEqual([
      {
        id: 'rate',
        label: 'share of turns ending in a fault',
        expression: `IF(FILL(turns, 0) >= 10, (${sum}) / turns, 0)`,
        returnData: true,
      },
    ]);
  });

  test('missing metrics: AgentCore invocations of this runtime and no Turns in 15 minutes, both halves silent', () => {
    const invoked = alarm('kokoro-dev-agent-invoked');
    expect(invoked).toMatchObject({
      name: 'kokoro-dev-agent-invoked',
      metricQueries: [
        {
          id: 'invocations',
          expression: `SELECT SUM(Invocations) FROM "AWS/Bedrock-AgentCore" WHERE Resource = '${runtimeArn}'`,
          period: 900,
          returnData: true,
        },
      ],
      evaluationPeriods: 1,
      comparisonOperator: 'GreaterThanOrEqualToThreshold',
      threshold: 3,
      treatMissingData: 'notBreaching',
    });
    const noTurns = alarm('kokoro-dev-agent-no-turns');
    expect(noTurns).toMatchObject({
      namespace: 'KokoroSpeech',
      metricName: 'Turns',
      dimensions: service,
      statistic: 'SampleCount',
      period: 900,
      comparisonOperator: 'LessThanThreshold',
      threshold: 1,
      treatMissingData: 'breaching',
    });
    // The halves alone mean nothing (idle is no invocations and no turns): only the composite pages.
    for (const half of [invoked, noTurns]) {
      expect(half.alarmActions ?? []).toEqual([]);
      expect(half.okActions ?? []).toEqual([]);
    }
    expect(run.find('aws:cloudwatch/compositeAlarm:CompositeAlarm').inputs).toMatchObject({
      alarmName: 'kokoro-dev-agent-missing-metrics',
      alarmRule: 'ALARM("kokoro-dev-agent-invoked") AND ALARM("kokoro-dev-agent-no-turns")',
      alarmActions: [topic],
      okActions: [topic],
    });
  });
});

describe('log groups', () => {
  test("the runtime endpoint's group (stdout, the EMF lines) and the OTLP logs group, 30 days; no Transaction Search", () => {
    const groups = run
      .all('aws:cloudwatch/logGroup:LogGroup')
      .map((g) => [g.inputs.name, g.inputs.retentionInDays])
      .sort();
    expect(groups).toEqual([
      ['/aws/bedrock-agentcore/runtimes/kokoro_dev_agent-AbCdE12345-live', 30],
      ['/aws/bedrock-agentcore/runtimes/kokoro_dev_agent/otel', 30],
    ]);
    expect(run.find('aws:cloudwatch/logStream:LogStream').inputs).toMatchObject({
      name: 'runtime-logs',
      logGroupName: '/aws/bedrock-agentcore/runtimes/kokoro_dev_agent/otel',
    });
    expect(run.all('aws:cloudwatch/logResourcePolicy:LogResourcePolicy')).toEqual([]);
    expect(run.all('aws:xray/traceSegmentDestination:TraceSegmentDestination')).toEqual([]);
  });
});

test('passes every policy of the CrossGuard pack, and carries no IAM document', async () => {
  expect(await policyViolations(run.resources)).toEqual([]);
  expect(policyDocumentsOf(run.resources)).toEqual([]);
});
