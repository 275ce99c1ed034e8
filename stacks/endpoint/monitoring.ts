// CloudWatch alarms (5xx errors, model latency, sessions refused by admission control; no instances
// reporting and no load metric, both created once the endpoint is in service) and a small
// dashboard for one endpoint variant. The 5xx alarm also rolls back blue/green deployments (see
// tts-endpoint.ts).
import * as aws from '@pulumi/aws';
import * as pulumi from '@pulumi/pulumi';
import { LOAD_METRIC_NAMESPACE, LOAD_RATIO_METRIC, REFUSALS_METRIC } from './autoscaling.ts';

export interface EndpointMonitoringArgs {
  endpointName: pulumi.Input<string>;
  variantName: string;
  region: pulumi.Input<string>;
  /** p95 model latency above which the latency alarm fires, in milliseconds. */
  latencyAlarmMs: number;
  /** Sessions refused per minute (all instances) that count towards the refusal alarm (default 1). */
  refusalAlarmPerMinute?: number;
  /** SNS topic notified on alarm and recovery; none when unset. */
  alarmTopicArn?: string;
  tags: pulumi.Input<Record<string, string>>;
}

/** Dashboard body: traffic and errors, latency, concurrency, instance utilisation. */
export function dashboardBody(endpointName: string, variantName: string, region: string): string {
  const dims = ['EndpointName', endpointName, 'VariantName', variantName];
  const widget = (title: string, metrics: unknown[][], y: number, x: number) => ({
    type: 'metric',
    x,
    y,
    width: 12,
    height: 6,
    properties: { title, region, view: 'timeSeries', stat: 'Sum', period: 60, metrics },
  });
  return JSON.stringify({
    widgets: [
      widget(
        'Invocations and errors',
        [
          ['AWS/SageMaker', 'Invocations', ...dims],
          ['AWS/SageMaker', 'Invocation4XXErrors', ...dims],
          ['AWS/SageMaker', 'Invocation5XXErrors', ...dims],
        ],
        0,
        0,
      ),
      widget(
        'Model latency (us)',
        [
          ['AWS/SageMaker', 'ModelLatency', ...dims, { stat: 'p50' }],
          ['AWS/SageMaker', 'ModelLatency', ...dims, { stat: 'p95' }],
        ],
        0,
        12,
      ),
      widget(
        'Concurrent requests per model',
        [['AWS/SageMaker', 'ConcurrentRequestsPerModel', ...dims, { stat: 'Maximum' }]],
        6,
        0,
      ),
      widget(
        'Load (the containers’ own metrics)',
        [
          [LOAD_METRIC_NAMESPACE, LOAD_RATIO_METRIC, ...dims, { stat: 'Average', yAxis: 'right' }],
          [LOAD_METRIC_NAMESPACE, 'SessionsAdmitted', ...dims, { stat: 'Sum' }],
          [LOAD_METRIC_NAMESPACE, 'SessionCapacity', ...dims, { stat: 'Sum' }],
          [LOAD_METRIC_NAMESPACE, REFUSALS_METRIC, ...dims, { stat: 'Sum' }],
        ],
        12,
        0,
      ),
      widget(
        'Instances: CPU and GPU (%)',
        [
          ['/aws/sagemaker/Endpoints', 'CPUUtilization', ...dims, { stat: 'Average' }],
          ['/aws/sagemaker/Endpoints', 'GPUUtilization', ...dims, { stat: 'Average' }],
          [
            '/aws/sagemaker/Endpoints',
            'CPUUtilization',
            ...dims,
            { stat: 'SampleCount', label: 'instances reporting' },
          ],
        ],
        6,
        12,
      ),
    ],
  });
}

export interface NoInstancesAlarmArgs {
  endpointName: pulumi.Input<string>;
  variantName: string;
  /** SNS topic notified on alarm and recovery; none when unset. */
  alarmTopicArn?: string;
  tags: pulumi.Input<Record<string, string>>;
}

/** What every alarm of one variant shares: its dimensions, one-minute periods, actions and tags. */
function alarmBasics(args: NoInstancesAlarmArgs) {
  const actions = args.alarmTopicArn === undefined ? [] : [args.alarmTopicArn];
  return {
    dimensions: { EndpointName: args.endpointName, VariantName: args.variantName },
    period: 60,
    alarmActions: actions,
    okActions: actions,
    tags: args.tags,
  };
}

/** An alarm on a metric falling silent: no sample for `minutes` minutes (missing data breaches). */
function silenceAlarm(
  name: string,
  args: NoInstancesAlarmArgs,
  metric: { namespace: string; metricName: string; minutes: number; description: pulumi.Output<string> },
  opts?: pulumi.CustomResourceOptions,
): aws.cloudwatch.MetricAlarm {
  return new aws.cloudwatch.MetricAlarm(
    name,
    {
      ...alarmBasics(args),
      alarmDescription: metric.description,
      namespace: metric.namespace,
      metricName: metric.metricName,
      statistic: 'SampleCount',
      comparisonOperator: 'LessThanThreshold',
      threshold: 1,
      evaluationPeriods: metric.minutes,
      datapointsToAlarm: metric.minutes,
      treatMissingData: 'breaching',
    },
    opts,
  );
}

/**
 * Every instance reports CPUUtilization each minute; no samples for 5 minutes means no instance is
 * up, and missing data counts as breaching. Create it once the endpoint is InService (pass the
 * endpoint in `dependsOn`: Pulumi's create waits for InService), so it starts with instances
 * reporting instead of spending the first creation (~10 minutes without metrics) in ALARM.
 */
export function noInstancesAlarm(
  name: string,
  args: NoInstancesAlarmArgs,
  opts?: pulumi.CustomResourceOptions,
): aws.cloudwatch.MetricAlarm {
  return silenceAlarm(
    `${name}-no-instances`,
    args,
    {
      namespace: '/aws/sagemaker/Endpoints',
      metricName: 'CPUUtilization',
      minutes: 5,
      description: pulumi.interpolate`${args.endpointName}: no instance is reporting metrics`,
    },
    opts,
  );
}

/**
 * The containers publish LoadRatio every minute as log lines that CloudWatch Logs turns into
 * metrics (Embedded Metric Format): none for 10 minutes while instances run means the scaling
 * policy is blind (logs not delivered, or not extracted). Created once the endpoint is InService,
 * like the no-instances alarm; missing data breaches.
 */
export function noLoadMetricAlarm(
  name: string,
  args: NoInstancesAlarmArgs,
  opts?: pulumi.CustomResourceOptions,
): aws.cloudwatch.MetricAlarm {
  return silenceAlarm(
    `${name}-no-load-metric`,
    args,
    {
      namespace: LOAD_METRIC_NAMESPACE,
      metricName: LOAD_RATIO_METRIC,
      minutes: 10,
      description: pulumi.interpolate`${args.endpointName}: no ${LOAD_METRIC_NAMESPACE}/${LOAD_RATIO_METRIC} from the containers: autoscaling cannot see the load`,
    },
    opts,
  );
}

export class EndpointMonitoring extends pulumi.ComponentResource {
  declare readonly errorAlarmName: pulumi.Output<string>;

  constructor(name: string, args: EndpointMonitoringArgs, opts?: pulumi.ComponentResourceOptions) {
    super('kokoro:endpoint:EndpointMonitoring', name, {}, opts);
    const common = alarmBasics(args);

    const errors = new aws.cloudwatch.MetricAlarm(
      `${name}-5xx`,
      {
        ...common,
        alarmDescription: pulumi.interpolate`${args.endpointName}: model or container 5xx errors`,
        namespace: 'AWS/SageMaker',
        metricName: 'Invocation5XXErrors',
        statistic: 'Sum',
        comparisonOperator: 'GreaterThanOrEqualToThreshold',
        threshold: 1,
        evaluationPeriods: 5,
        datapointsToAlarm: 2,
        treatMissingData: 'notBreaching',
      },
      { parent: this },
    );
    new aws.cloudwatch.MetricAlarm(
      `${name}-latency`,
      {
        ...common,
        alarmDescription: pulumi.interpolate`${args.endpointName}: p95 model latency above ${args.latencyAlarmMs} ms`,
        namespace: 'AWS/SageMaker',
        metricName: 'ModelLatency',
        extendedStatistic: 'p95',
        comparisonOperator: 'GreaterThanThreshold',
        threshold: args.latencyAlarmMs * 1000, // ModelLatency is in microseconds
        evaluationPeriods: 5,
        datapointsToAlarm: 3,
        treatMissingData: 'notBreaching',
      },
      { parent: this },
    );
    // Admission control refused sessions in 2 of 3 minutes: callers wait (the agent retries within
    // its budget) or hear nothing; scaling is behind, or the variant is at maxInstances.
    new aws.cloudwatch.MetricAlarm(
      `${name}-refusals`,
      {
        ...common,
        alarmDescription: pulumi.interpolate`${args.endpointName}: admission control is refusing sessions (capacity reached)`,
        namespace: LOAD_METRIC_NAMESPACE,
        metricName: REFUSALS_METRIC,
        statistic: 'Sum',
        comparisonOperator: 'GreaterThanOrEqualToThreshold',
        threshold: args.refusalAlarmPerMinute ?? 1,
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
        treatMissingData: 'notBreaching',
      },
      { parent: this },
    );
    new aws.cloudwatch.Dashboard(
      `${name}-dashboard`,
      {
        dashboardName: args.endpointName,
        dashboardBody: pulumi
          .all([args.endpointName, args.region])
          .apply(([endpoint, region]) => dashboardBody(endpoint, args.variantName, region)),
      },
      { parent: this },
    );

    this.errorAlarmName = errors.name;
    this.registerOutputs({ errorAlarmName: this.errorAlarmName });
  }
}
