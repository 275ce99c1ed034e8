// agent-runtime: builds the voice-agent image (linux/arm64) and runs it on Bedrock AgentCore
// Runtime, wired to the SageMaker endpoint and a Bedrock model the foundation role allows, and
// accepting the web layer's sign-ins (or SigV4 callers, or another issuer's JWTs).
import { fileURLToPath } from 'node:url';
import * as awsx from '@pulumi/awsx';
import * as pulumi from '@pulumi/pulumi';
import {
  defaultTags,
  intSetting,
  numberSetting,
  projectNames,
  requireFoundationRegion,
  requireProducerOutput,
  resourceName,
  retentionDaysSetting,
  slug,
  stackRef,
} from '../shared/index.ts';
import { awsScope } from '../shared/iam.ts';
import {
  AgentRuntime,
  authorizerConfiguration,
  cognitoDiscoveryUrl,
  invokeUrl as buildInvokeUrl,
  type InboundAuth,
  type JwtAuthorizer,
} from './agent-runtime.ts';
import { AgentMonitoring } from './monitoring.ts';
import { RuntimeLogs, telemetryEnvironment } from './observability.ts';
import { checkRoleAllowsTranscribe, readSttSettings, sttEnvironment } from './stt.ts';

const config = new pulumi.Config();
const qualifier = config.get('runtimeEndpointName') ?? 'live';
// AgentCore names allow letters, digits and underscores only.
const runtimeName =
  config.get('runtimeName') ?? `kokoro_${slug(pulumi.getStack()).replace(/-/g, '_')}_agent`.slice(0, 48);
if (!/^[a-zA-Z][a-zA-Z0-9_]{0,47}$/.test(runtimeName) || !/^[a-zA-Z][a-zA-Z0-9_]{0,47}$/.test(qualifier)) {
  throw new Error(
    `runtimeName '${runtimeName}' and runtimeEndpointName '${qualifier}' must be a letter then up to 47 letters, digits or underscores`,
  );
}
const tags = defaultTags({ layer: 'agent-runtime' });

// Observability (stacks/README.md, Monitoring): checked here, before anything is declared.
const tracing = config.getBoolean('tracing') ?? true;
const transactionSearch = config.getBoolean('transactionSearch') ?? false;
const logRetentionDays = retentionDaysSetting(config, 'logRetentionDays', 30);
const firstAudioP95AlarmMs = intSetting(config, 'firstAudioP95AlarmMs', 2000, { min: 100, max: 60_000 });
const errorRateAlarm = numberSetting(config, 'errorRateAlarm', 0.05, { min: 0.001, max: 1 });
const errorRateMinTurns = intSetting(config, 'errorRateMinTurns', 10, { min: 1, max: 100_000 });
const alarmTopicSetting = config.get('alarmTopicArn');
if (alarmTopicSetting !== undefined && !/^arn:aws[\w-]*:sns:[a-z0-9-]+:\d{12}:[\w-]{1,256}$/.test(alarmTopicSetting)) {
  throw new Error(`config 'alarmTopicArn' must be an SNS topic ARN, got '${alarmTopicSetting}'`);
}

// Speech in (stacks/README.md, Speech-to-text): checked here, before anything is declared.
const stt = readSttSettings(config);

const foundation = stackRef('foundationStack', projectNames.foundation);
const endpoint = stackRef('endpointStack', projectNames.endpoint);
const region = await requireFoundationRegion(foundation); // before anything is declared
if (stt.provider === 'transcribe')
  checkRoleAllowsTranscribe(await requireProducerOutput(foundation, 'sttProvider', 'stacks/foundation'));

const modelIdSetting = config.get('bedrockModelId');
const bedrockModelId = foundation.requireOutput('bedrockModelIds').apply((allowed: string[]) => {
  const id = modelIdSetting ?? allowed[0];
  if (id === undefined || !allowed.includes(id)) {
    throw new Error(
      `bedrockModelId '${id}' is not among the foundation's bedrockModelIds (${allowed.join(', ')}): the role may not invoke it`,
    );
  }
  return id;
});

// Callers authenticate with SigV4 (iam) or a bearer JWT (AgentCore takes one or the other): by
// default the web layer's user pool and page client; `jwt` takes the issuer from the keys below.
const jwtDiscoveryUrl = config.get('jwtDiscoveryUrl');
const cognitoUserPoolId = config.get('cognitoUserPoolId');
if (jwtDiscoveryUrl !== undefined && cognitoUserPoolId !== undefined) {
  throw new Error("set either 'jwtDiscoveryUrl' or 'cognitoUserPoolId', not both");
}
const jwtKeysSet = jwtDiscoveryUrl !== undefined || cognitoUserPoolId !== undefined;
const inboundAuth: InboundAuth =
  config.get('inboundAuth', { allowedValues: ['web', 'iam', 'jwt'] as const }) ?? (jwtKeysSet ? 'jwt' : 'web');
if (jwtKeysSet !== (inboundAuth === 'jwt')) {
  throw new Error(
    inboundAuth === 'jwt'
      ? "inboundAuth 'jwt' needs 'jwtDiscoveryUrl' or 'cognitoUserPoolId'"
      : `inboundAuth '${inboundAuth}' takes no 'jwtDiscoveryUrl' or 'cognitoUserPoolId' (those are for inboundAuth 'jwt')`,
  );
}

/** The web layer's user pool and page client, read before any resource is declared. */
async function webAuthorizer(): Promise<JwtAuthorizer> {
  const web = stackRef('webStack', projectNames.web);
  const [discoveryUrl, clientId] = await Promise.all([
    requireProducerOutput(web, 'jwtDiscoveryUrl', 'stacks/web'),
    requireProducerOutput(web, 'userPoolClientId', 'stacks/web'),
  ]);
  return { discoveryUrl: String(discoveryUrl), allowedClients: [String(clientId)] };
}

function configuredAuthorizer(): JwtAuthorizer {
  const jwtRegion = config.get('cognitoRegion') ?? new pulumi.Config('aws').require('region');
  return {
    discoveryUrl:
      cognitoUserPoolId === undefined ? jwtDiscoveryUrl! : cognitoDiscoveryUrl(jwtRegion, cognitoUserPoolId),
    allowedClients: config.getObject<string[]>('jwtAllowedClients') ?? [],
    allowedAudiences: config.getObject<string[]>('jwtAllowedAudiences') ?? [],
  };
}

const jwt: JwtAuthorizer | undefined =
  inboundAuth === 'web' ? await webAuthorizer() : inboundAuth === 'jwt' ? configuredAuthorizer() : undefined;
authorizerConfiguration(jwt); // refuses a bad URL or an empty allow-list at preview, naming the keys

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const image = new awsx.ecr.Image(`${runtimeName.replace(/_/g, '-')}-image`, {
  repositoryUrl: foundation.requireOutput('runtimeRepositoryUrl'),
  context: repoRoot,
  dockerfile: `${repoRoot}runtime/Dockerfile`,
  platform: 'linux/arm64',
});

const agent = new AgentRuntime(runtimeName.replace(/_/g, '-'), {
  runtimeName,
  endpointName: qualifier,
  imageUri: image.imageUri,
  roleArn: foundation.requireOutput('agentRuntimeRoleArn'),
  environment: {
    PORT: '8080',
    SAGEMAKER_ENDPOINT_NAME: endpoint.requireOutput('endpointName'),
    AWS_REGION: region,
    LLM_PROVIDER: 'bedrock',
    BEDROCK_MODEL_ID: bedrockModelId,
    KOKORO_VOICE: config.get('voice') ?? 'af_heart',
    TTS_TRANSPORT: config.get('ttsTransport', { allowedValues: ['bidi', 'response-stream'] as const }) ?? 'bidi',
    ...sttEnvironment(stt),
    // EMF metrics on stdout; spans and logs over OTLP when `tracing` is on.
    ...telemetryEnvironment({ service: runtimeName, region, tracing }),
    // Conversations survive the runtime being recycled (AgentCore ends an idle session's microVM).
    ...((config.getBoolean('persistSessions') ?? true)
      ? {
          SESSION_STORE: pulumi.interpolate`s3://${foundation.requireOutput('weightsBucketName')}/${foundation.requireOutput('sessionsPrefix')}`,
        }
      : {}),
  },
  idleSessionTimeoutSeconds: intSetting(config, 'idleSessionTimeoutSeconds', 900, { min: 60, max: 28_800 }),
  maxLifetimeSeconds: intSetting(config, 'maxLifetimeSeconds', 28_800, { min: 60, max: 28_800 }),
  ...(jwt === undefined ? {} : { jwt }),
  tags,
});

// The runtime's log groups, made right after the runtime (before its first invocation) with a retention.
new RuntimeLogs(resourceName('agent-logs'), {
  runtimeName,
  runtimeId: agent.runtimeId,
  qualifier,
  retentionInDays: logRetentionDays,
  tracing,
  transactionSearch,
  scope: awsScope(),
  tags,
});

new AgentMonitoring(resourceName('agent'), {
  service: runtimeName,
  runtimeArn: agent.runtimeArn,
  endpointName: endpoint.requireOutput('endpointName') as pulumi.Output<string>,
  variantName: endpoint.requireOutput('variantName') as pulumi.Output<string>,
  region,
  firstAudioP95AlarmMs,
  errorRateAlarm,
  errorRateMinTurns,
  // Unset here: the endpoint layer's topic ('' when it has none), so both layers notify the same place.
  alarmTopicArn: alarmTopicSetting ?? (endpoint.getOutput('alarmTopicArn') as pulumi.Output<string | undefined>),
  dashboardName: resourceName('agent'),
  tags,
});

export const agentRuntimeArn = agent.runtimeArn;
export const agentRuntimeId = agent.runtimeId;
export const agentRuntimeEndpointArn = agent.endpointArn;
export { qualifier, inboundAuth };
export const invokeUrl = pulumi.all([region, agent.runtimeArn]).apply(([r, arn]) => buildInvokeUrl(r, arn, qualifier));
export const imageUri = image.imageUri;
// Runs from any folder of the checkout: the `say` script lives in the root package.json.
export const cliCommand = pulumi.interpolate`npm --prefix "$(git rev-parse --show-toplevel)" run say -- "prompt" --target ${agent.runtimeArn} --qualifier ${qualifier}`;
