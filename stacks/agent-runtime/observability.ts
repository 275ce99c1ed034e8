// What the agent needs to report itself: the environment that turns on its EMF metrics and its
// OpenTelemetry export (spans to X-Ray's OTLP endpoint, logs to CloudWatch Logs' OTLP endpoint), the
// log groups made ahead of their writers (so that each has a retention), and, behind a switch, the
// account's CloudWatch Transaction Search. Which of this AWS documents and which is inferred:
// docs/design/observability.md, "In AWS: dashboard, alarms, IAM".
import * as aws from '@pulumi/aws';
import * as pulumi from '@pulumi/pulumi';
import { arn, logGroupArn, policyDocument, type AwsScope, type PolicyDocument } from '../shared/iam.ts';
import { METRICS_NAMESPACE } from '../shared/metrics.ts';

/** Every AgentCore runtime log group lies under this prefix (the execution role may write only there). */
export const RUNTIME_LOG_PREFIX = '/aws/bedrock-agentcore/runtimes/';

/**
 * The group AgentCore writes the container's stdout and stderr to, for one runtime endpoint:
 * `/aws/bedrock-agentcore/runtimes/<agent_id>-<endpoint_name>` (AgentCore guide, "View observability
 * data": https://docs.aws.amazon.com/bedrock-agentcore/latest/devguide/observability-view.html;
 * inferred for endpoints other than DEFAULT). The agent's EMF lines land here.
 */
export const runtimeLogGroupName = (runtimeId: string, qualifier: string): string =>
  `${RUNTIME_LOG_PREFIX}${runtimeId}-${qualifier}`;

/**
 * The group the agent's OTLP logs go to. Its name cannot contain the runtime id (the runtime's
 * environment names it, and the id exists only once the runtime does), so it is the runtime's name.
 */
export const otlpLogGroupName = (runtimeName: string): string => `${RUNTIME_LOG_PREFIX}${runtimeName}/otel`;

/** The stream in that group the OTLP logs endpoint writes to (it must exist before the first export). */
export const OTLP_LOG_STREAM = 'runtime-logs';

export interface TelemetryEnvironmentArgs {
  /** METRICS_SERVICE and OTEL_SERVICE_NAME: the runtime's name. */
  service: string;
  region: string;
  /** Spans and OTLP logs on (true) or off. */
  tracing: boolean;
}

/**
 * The agent's metrics and tracing environment. Metrics: EMF lines on stdout (`AGENT_METRICS=emf`)
 * in the container's namespace, dimension `Service`. Tracing: the standard OTEL_* variables with
 * the values AgentCore documents for agents that export their own spans (AgentCore guide, "Add
 * observability to your Amazon Bedrock AgentCore resources":
 * https://docs.aws.amazon.com/bedrock-agentcore/latest/devguide/observability-configure.html),
 * pointed at X-Ray's and CloudWatch Logs' OTLP endpoints
 * (https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch-OTLPEndpoint.html),
 * which take SigV4-signed requests. Off, the SDK is disabled: no exporter, no cost.
 */
export function telemetryEnvironment(a: TelemetryEnvironmentArgs): Record<string, string> {
  const metrics = { AGENT_METRICS: 'emf', METRICS_NAMESPACE, METRICS_SERVICE: a.service };
  if (!a.tracing) {
    return {
      ...metrics,
      AGENT_OBSERVABILITY_ENABLED: 'false',
      OTEL_SDK_DISABLED: 'true',
      OTEL_TRACES_EXPORTER: 'none',
    };
  }
  const logGroup = otlpLogGroupName(a.service);
  return {
    ...metrics,
    AGENT_OBSERVABILITY_ENABLED: 'true',
    OTEL_SERVICE_NAME: a.service,
    OTEL_RESOURCE_ATTRIBUTES: `service.name=${a.service},aws.log.group.names=${logGroup}`,
    // What the agent sends (protocol/src/observability/tracing.ts); X-Ray's OTLP endpoint takes JSON too.
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_TRACES_EXPORTER: 'otlp',
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `https://xray.${a.region}.amazonaws.com/v1/traces`,
    OTEL_LOGS_EXPORTER: 'otlp',
    OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: `https://logs.${a.region}.amazonaws.com/v1/logs`,
    OTEL_EXPORTER_OTLP_LOGS_HEADERS: `x-aws-log-group=${logGroup},x-aws-log-stream=${OTLP_LOG_STREAM},x-aws-metric-namespace=bedrock-agentcore`,
    // The metrics go as EMF lines (above), not through OpenTelemetry.
    OTEL_METRICS_EXPORTER: 'none',
  };
}

/**
 * Lets X-Ray write spans into `aws/spans` (and Application Signals' group), only on behalf of this
 * account: the resource policy Transaction Search needs (CloudWatch guide, "Enable transaction
 * search": https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/Enable-TransactionSearch.html).
 */
export function transactionSearchPolicy(scope: AwsScope): PolicyDocument {
  return policyDocument([
    {
      Sid: 'TransactionSearchXRayAccess',
      Effect: 'Allow',
      Principal: { Service: 'xray.amazonaws.com' },
      Action: ['logs:PutLogEvents'],
      Resource: [`${logGroupArn(scope, 'aws/spans')}:*`, `${logGroupArn(scope, '/aws/application-signals/data')}:*`],
      Condition: {
        ArnLike: { 'aws:SourceArn': arn(scope, 'xray', '*') },
        StringEquals: { 'aws:SourceAccount': scope.account },
      },
    },
  ]);
}

export interface RuntimeLogsArgs {
  runtimeName: string;
  runtimeId: pulumi.Input<string>;
  qualifier: string;
  retentionInDays: number;
  tracing: boolean;
  /** Turn on CloudWatch Transaction Search for the whole account and region (see stacks/README.md). */
  transactionSearch: boolean;
  scope: pulumi.Input<AwsScope>;
  tags: pulumi.Input<Record<string, string>>;
}

/** The runtime's log groups with their retention, and Transaction Search when asked for. */
export class RuntimeLogs extends pulumi.ComponentResource {
  declare readonly runtimeLogGroup: pulumi.Output<string>;

  constructor(name: string, args: RuntimeLogsArgs, opts?: pulumi.ComponentResourceOptions) {
    super('kokoro:agent:RuntimeLogs', name, {}, opts);
    const runtimeGroup = new aws.cloudwatch.LogGroup(
      `${name}-runtime`,
      {
        name: pulumi.output(args.runtimeId).apply((id) => runtimeLogGroupName(id, args.qualifier)),
        retentionInDays: args.retentionInDays,
        tags: args.tags,
      },
      { parent: this },
    );
    if (args.tracing) {
      const otlpGroup = new aws.cloudwatch.LogGroup(
        `${name}-otel`,
        { name: otlpLogGroupName(args.runtimeName), retentionInDays: args.retentionInDays, tags: args.tags },
        { parent: this },
      );
      new aws.cloudwatch.LogStream(
        `${name}-otel-stream`,
        { name: OTLP_LOG_STREAM, logGroupName: otlpGroup.name },
        { parent: this },
      );
    }
    if (args.transactionSearch) {
      const policy = new aws.cloudwatch.LogResourcePolicy(
        `${name}-transaction-search`,
        {
          policyName: `${name}-transaction-search`,
          policyDocument: pulumi.output(args.scope).apply((scope) => JSON.stringify(transactionSearchPolicy(scope))),
        },
        { parent: this },
      );
      // Account-wide: every span X-Ray ingests in this region goes to CloudWatch Logs from now on.
      new aws.xray.TraceSegmentDestination(
        `${name}-trace-destination`,
        { destination: 'CloudWatchLogs' },
        { parent: this, dependsOn: [policy] },
      );
    }
    this.runtimeLogGroup = runtimeGroup.name;
    this.registerOutputs({ runtimeLogGroup: this.runtimeLogGroup });
  }
}
