// agent-runtime under Pulumi mocks: arm64 image, runtime settings and environment, JWT authorizer,
// the outputs it reads from foundation and endpoint, and the ones it exports.
import { beforeAll, describe, expect, test } from '@jest/globals';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { agentRuntimeOutputs, endpointOutputs, foundationOutputs } from '../shared/outputs.ts';
import { policyViolations } from '../testing/policy-check.ts';
import { policyDocumentsOf, referenceProblems } from '../testing/iam-reference.ts';
import { account, fakeOutputs, organization, region, type ProgramRun } from '../testing/mocks.ts';
import { FOUNDATION_STACK, agentFoundation, runAgentRuntime } from '../testing/agent-runtime-run.ts';
import { authorizerConfiguration, cognitoDiscoveryUrl, invokeUrl } from './agent-runtime.ts';

const repositoryUrl = `${account}.dkr.ecr.${region}.amazonaws.com/agent`;
const runtimeArn = `arn:aws:bedrock-agentcore:${region}:${account}:runtime/kokoro_dev_agent-AbCdE12345`;
let run: ProgramRun;

beforeAll(async () => {
  run = await runAgentRuntime({
    config: {
      cognitoUserPoolId: 'us-east-1_AbC123',
      jwtAllowedClients: JSON.stringify(['web-client']),
      endpointStack: 'other-org/kokoro-endpoint/prod',
    },
    stackOutputs: {
      [FOUNDATION_STACK]: agentFoundation({
        runtimeRepositoryUrl: repositoryUrl,
        agentRuntimeRoleArn: `arn:aws:iam::${account}:role/agentcore`,
        bedrockModelIds: ['us.anthropic.claude-haiku-4-5-20251001-v1:0', 'amazon.nova-micro-v1:0'],
      }),
      'other-org/kokoro-endpoint/prod': fakeOutputs(endpointOutputs, { endpointName: 'kokoro-prod-tts' }),
    },
  });
});

test('reads only outputs its producers export, and exports exactly its contract', () => {
  expect(run.reads[`${organization}/kokoro-foundation/dev`]!.sort()).toEqual([
    'agentRuntimeRoleArn',
    'bedrockModelIds',
    'region',
    'runtimeRepositoryUrl',
    'sessionsPrefix',
    'sttProvider',
    'weightsBucketName',
  ]);
  expect([...new Set(run.reads['other-org/kokoro-endpoint/prod'])].sort()).toEqual([
    'alarmTopicArn',
    'endpointName',
    'variantName',
  ]);
  for (const name of run.reads[`${organization}/kokoro-foundation/dev`]!) expect(foundationOutputs).toContain(name);
  for (const name of run.reads['other-org/kokoro-endpoint/prod']!) expect(endpointOutputs).toContain(name);
  expect(Object.keys(run.outputs).sort()).toEqual([...agentRuntimeOutputs].sort());
});

test('outputs: ARNs, invoke URL and the exact CLI command', () => {
  expect(run.outputs).toEqual({
    agentRuntimeArn: runtimeArn,
    agentRuntimeId: 'kokoro_dev_agent-AbCdE12345',
    agentRuntimeEndpointArn: `arn:aws:bedrock-agentcore:${region}:${account}:runtime/kokoro_dev_agent-AbCdE12345/runtime-endpoint/live`,
    qualifier: 'live',
    inboundAuth: 'jwt',
    invokeUrl: `https://bedrock-agentcore.${region}.amazonaws.com/runtimes/${encodeURIComponent(runtimeArn)}/invocations?qualifier=live`,
    imageUri: `${repositoryUrl}@sha256:${'ab'.repeat(32)}`,
    cliCommand: `npm --prefix "$(git rev-parse --show-toplevel)" run say -- "prompt" --target ${runtimeArn} --qualifier live`,
  });
});

test('the CLI command finds the root `say` script from this folder, where the README leaves the user', async () => {
  const command = run.outputs.cliCommand as string;
  const prefix = command.slice(0, command.indexOf(' run say -- '));
  expect(prefix).toBe('npm --prefix "$(git rev-parse --show-toplevel)"');
  // `npm run` with no script lists the scripts of the package it resolved: the root's, with `say`.
  const { stdout } = await promisify(execFile)('sh', ['-c', `${prefix} run`], {
    cwd: fileURLToPath(new URL('.', import.meta.url)),
  });
  expect(stdout).toMatch(/^\s+say$/m);
  expect(stdout).toContain('kokoro-speech@');
});

test('builds runtime/Dockerfile for linux/arm64 from the repository root', () => {
  const image = run.find('awsx:ecr:Image').inputs;
  expect(image).toMatchObject({
    repositoryUrl,
    platform: 'linux/arm64',
    dockerfile: `${image.context}runtime/Dockerfile`,
  });
  expect(image.context).toBe(new URL('../../', import.meta.url).pathname);
});

describe('AgentCore runtime', () => {
  test('runs the image with the foundation role, PUBLIC network, HTTP, lifecycle defaults', () => {
    const runtime = run.find('aws:bedrock/agentcoreAgentRuntime:AgentcoreAgentRuntime').inputs;
    expect(runtime).toMatchObject({
      agentRuntimeName: 'kokoro_dev_agent',
      agentRuntimeArtifact: { containerConfiguration: { containerUri: run.outputs.imageUri } },
      roleArn: `arn:aws:iam::${account}:role/agentcore`,
      networkConfiguration: { networkMode: 'PUBLIC' },
      protocolConfiguration: { serverProtocol: 'HTTP' },
      lifecycleConfigurations: [{ idleRuntimeSessionTimeout: 900, maxLifetime: 28_800 }],
    });
  });

  test('environment names the endpoint, region, first allowed model, voice, transport, the session store, metrics and tracing', () => {
    const otelGroup = '/aws/bedrock-agentcore/runtimes/kokoro_dev_agent/otel';
    expect(run.find('aws:bedrock/agentcoreAgentRuntime:AgentcoreAgentRuntime').inputs.environmentVariables).toEqual({
      PORT: '8080',
      SAGEMAKER_ENDPOINT_NAME: 'kokoro-prod-tts',
      AWS_REGION: region,
      LLM_PROVIDER: 'bedrock',
      BEDROCK_MODEL_ID: 'us.anthropic.claude-haiku-4-5-20251001-v1:0',
      KOKORO_VOICE: 'af_heart',
      TTS_TRANSPORT: 'bidi',
      STT_PROVIDER: 'transcribe',
      SESSION_STORE: 's3://weightsBucketName-value/sessionsPrefix-value',
      // EMF metrics on stdout, Service = the runtime's name, in the container's namespace.
      AGENT_METRICS: 'emf',
      METRICS_NAMESPACE: 'KokoroSpeech',
      METRICS_SERVICE: 'kokoro_dev_agent',
      // tracing (the default): spans to X-Ray's OTLP endpoint, logs to a group made for them.
      AGENT_OBSERVABILITY_ENABLED: 'true',
      OTEL_SERVICE_NAME: 'kokoro_dev_agent',
      OTEL_RESOURCE_ATTRIBUTES: `service.name=kokoro_dev_agent,aws.log.group.names=${otelGroup}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `https://xray.${region}.amazonaws.com/v1/traces`,
      OTEL_LOGS_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: `https://logs.${region}.amazonaws.com/v1/logs`,
      OTEL_EXPORTER_OTLP_LOGS_HEADERS: `x-aws-log-group=${otelGroup},x-aws-log-stream=runtime-logs,x-aws-metric-namespace=bedrock-agentcore`,
      OTEL_METRICS_EXPORTER: 'none',
    });
  });

  test('accepts JWTs from the configured Cognito pool and client', () => {
    expect(run.find('aws:bedrock/agentcoreAgentRuntime:AgentcoreAgentRuntime').inputs.authorizerConfiguration).toEqual({
      customJwtAuthorizer: {
        discoveryUrl: `https://cognito-idp.${region}.amazonaws.com/us-east-1_AbC123/.well-known/openid-configuration`,
        allowedClients: ['web-client'],
      },
    });
  });

  test('passes the verified bearer token on to the agent (Authorization in the header allowlist)', () => {
    expect(
      run.find('aws:bedrock/agentcoreAgentRuntime:AgentcoreAgentRuntime').inputs.requestHeaderConfiguration,
    ).toEqual({ requestHeaderAllowlists: ['Authorization'] });
  });

  test('the runtime endpoint follows the deployed version', () => {
    const endpoint = run.find('aws:bedrock/agentcoreAgentRuntimeEndpoint:AgentcoreAgentRuntimeEndpoint').inputs;
    expect(endpoint).toMatchObject({
      name: 'live',
      agentRuntimeId: 'kokoro_dev_agent-AbCdE12345',
      agentRuntimeVersion: '1',
    });
  });
});

describe('authorizer and URL helpers', () => {
  test('no authorizer without a discovery URL; bad URLs and empty allow-lists are refused', () => {
    expect(authorizerConfiguration(undefined)).toBeUndefined();
    expect(() => authorizerConfiguration({ discoveryUrl: 'https://idp.example/', allowedClients: ['c'] })).toThrow(
      /openid-configuration/,
    );
    expect(() =>
      authorizerConfiguration({ discoveryUrl: 'https://idp.example/.well-known/openid-configuration' }),
    ).toThrow(/jwtAllowedClients or jwtAllowedAudiences/);
    expect(() => cognitoDiscoveryUrl('us-east-1', 'not a pool')).toThrow(/Cognito user pool id/);
  });

  test('the invoke URL encodes the ARN', () => {
    expect(invokeUrl('eu-west-1', 'arn:aws:bedrock-agentcore:eu-west-1:1:runtime/x', 'live')).toBe(
      'https://bedrock-agentcore.eu-west-1.amazonaws.com/runtimes/arn%3Aaws%3Abedrock-agentcore%3Aeu-west-1%3A1%3Aruntime%2Fx/invocations?qualifier=live',
    );
  });
});

test('passes every policy of the CrossGuard pack', async () => {
  expect(await policyViolations(run.resources)).toEqual([]);
});

test('creates no IAM document (its roles live in foundation, where the reference check covers them)', async () => {
  const documents = policyDocumentsOf(run.resources);
  expect(documents).toEqual([]);
  expect(await referenceProblems(documents)).toEqual([]);
});
