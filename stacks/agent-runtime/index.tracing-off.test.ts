// agent-runtime under Pulumi mocks with every observability key set: tracing off (no exporter, no
// OTLP log group), Transaction Search on (its resource policy checked against AWS's reference),
// another retention, alarm thresholds and an alarm topic of its own.
import { beforeAll, expect, test } from '@jest/globals';
import { endpointOutputs } from '../shared/outputs.ts';
import { policyDocumentsOf, referenceProblems } from '../testing/iam-reference.ts';
import { policyViolations } from '../testing/policy-check.ts';
import { account, fakeOutputs, organization, region, type ProgramRun } from '../testing/mocks.ts';
import { FOUNDATION_STACK, agentFoundation, runAgentRuntime } from '../testing/agent-runtime-run.ts';

const ownTopic = `arn:aws:sns:${region}:${account}:agent-oncall`;
let run: ProgramRun;

beforeAll(async () => {
  run = await runAgentRuntime({
    config: {
      inboundAuth: 'iam',
      tracing: 'false',
      transactionSearch: 'true',
      logRetentionDays: '90',
      firstAudioP95AlarmMs: '1200',
      errorRateAlarm: '0.2',
      errorRateMinTurns: '25',
      alarmTopicArn: ownTopic,
    },
    stackOutputs: {
      [FOUNDATION_STACK]: agentFoundation(),
      [`${organization}/kokoro-endpoint/dev`]: fakeOutputs(endpointOutputs, { alarmTopicArn: '' }),
    },
  });
});

const alarm = (name: string) => run.find('aws:cloudwatch/metricAlarm:MetricAlarm', name).inputs;

test('tracing off: metrics stay on, the OpenTelemetry SDK is disabled, no OTLP endpoint is named', () => {
  const env = run.find('aws:bedrock/agentcoreAgentRuntime:AgentcoreAgentRuntime').inputs.environmentVariables;
  expect(env).toMatchObject({
    AGENT_METRICS: 'emf',
    METRICS_NAMESPACE: 'KokoroSpeech',
    METRICS_SERVICE: 'kokoro_dev_agent',
    AGENT_OBSERVABILITY_ENABLED: 'false',
    OTEL_SDK_DISABLED: 'true',
    OTEL_TRACES_EXPORTER: 'none',
  });
  expect(Object.keys(env).filter((k) => k.startsWith('OTEL_EXPORTER_'))).toEqual([]);
});

test('one log group (the runtime endpoint’s), with the configured retention', () => {
  expect(run.all('aws:cloudwatch/logGroup:LogGroup').map((g) => [g.inputs.name, g.inputs.retentionInDays])).toEqual([
    ['/aws/bedrock-agentcore/runtimes/kokoro_dev_agent-AbCdE12345-live', 90],
  ]);
  expect(run.all('aws:cloudwatch/logStream:LogStream')).toEqual([]);
});

test('thresholds and the alarm topic come from config', () => {
  expect(alarm('kokoro-dev-agent-first-audio')).toMatchObject({ threshold: 1200, alarmActions: [ownTopic] });
  const errorRate = alarm('kokoro-dev-agent-error-rate');
  expect(errorRate).toMatchObject({ threshold: 0.2, alarmActions: [ownTopic] });
  expect(errorRate.alarmDescription).toBe(
    'kokoro_dev_agent: more than 20% of turns end in a fault (at 25 turns or more per 5 minutes)',
  );
  const rate = errorRate.metricQueries.find((q: { id: string }) => q.id === 'rate');
  expect(rate.expression).toMatch(/^IF\(FILL\(turns, 0\) >= 25, /);
  expect(run.find('aws:cloudwatch/compositeAlarm:CompositeAlarm').inputs.alarmActions).toEqual([ownTopic]);
  const body = JSON.parse(run.find('aws:cloudwatch/dashboard:Dashboard').inputs.dashboardBody);
  expect(body.widgets[0].properties.annotations).toEqual({ horizontal: [{ label: 'p95 alarm', value: 1200 }] });
});

test('Transaction Search: X-Ray may write spans into aws/spans for this account only, then spans go to CloudWatch Logs', async () => {
  const policy = run.find('aws:cloudwatch/logResourcePolicy:LogResourcePolicy');
  expect(JSON.parse(policy.inputs.policyDocument)).toEqual({
    Version: '2012-10-17',
    Statement: [
      {
        Sid: 'TransactionSearchXRayAccess',
        Effect: 'Allow',
        Principal: { Service: 'xray.amazonaws.com' },
        Action: ['logs:PutLogEvents'],
        Resource: [
          `arn:aws:logs:${region}:${account}:log-group:aws/spans:*`,
          `arn:aws:logs:${region}:${account}:log-group:/aws/application-signals/data:*`,
        ],
        Condition: {
          ArnLike: { 'aws:SourceArn': `arn:aws:xray:${region}:${account}:*` },
          StringEquals: { 'aws:SourceAccount': account },
        },
      },
    ],
  });
  const destination = run.find('aws:xray/traceSegmentDestination:TraceSegmentDestination');
  expect(destination.inputs).toEqual({ destination: 'CloudWatchLogs' });
  expect(destination.dependencies).toContain(
    `urn:pulumi:dev::kokoro-agent-runtime::kokoro:agent:RuntimeLogs$aws:cloudwatch/logResourcePolicy:LogResourcePolicy::${policy.name}`,
  );
  const documents = policyDocumentsOf(run.resources);
  expect(documents.map((d) => d.resource)).toEqual([
    `aws:cloudwatch/logResourcePolicy:LogResourcePolicy::${policy.name}`,
  ]);
  expect(await referenceProblems(documents)).toEqual([]);
  expect(await policyViolations(run.resources)).toEqual([]);
});
