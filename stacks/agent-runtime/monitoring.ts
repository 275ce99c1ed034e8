// Alarms on what callers feel, from the agent's own EMF metrics: first audio p95 above a target,
// the share of turns failing (service faults only, above a minimum traffic), and the agent's
// metrics missing while AgentCore reports invocations; plus the dashboard across agent and
// endpoint. Why each alarm is built the way it is: docs/design/observability.md, In AWS.
import * as aws from '@pulumi/aws';
import * as pulumi from '@pulumi/pulumi';
import {
  AGENT_DIMENSIONS,
  AGENTCORE_METRICS,
  AGENT_METRICS,
  FAULT_ERROR_CODES,
  METRICS_NAMESPACE,
} from '../shared/metrics.ts';
import { agentDashboardBody } from './agent-dashboard.ts';

/** The error-rate alarm's period: each 5-minute window is one data point. */
export const ERROR_RATE_PERIOD_SECONDS = 300;
/** The missing-metrics window: AgentCore invocations in 15 minutes and not one finished turn. */
export const MISSING_METRICS_PERIOD_SECONDS = 900;
/** Invocations in that window below which silence is not alarming (a caller who connected and left). */
export const MISSING_METRICS_MIN_INVOCATIONS = 3;

export interface AgentMonitoringArgs {
  /** The agent's Service dimension: the runtime's name (METRICS_SERVICE). */
  service: string;
  runtimeArn: pulumi.Input<string>;
  endpointName: pulumi.Input<string>;
  variantName: pulumi.Input<string>;
  region: pulumi.Input<string>;
  firstAudioP95AlarmMs: number;
  /** Share of turns (0-1) ending in a fault above which the error-rate alarm fires. */
  errorRateAlarm: number;
  /** Turns per 5 minutes below which the error rate is not evaluated (reads as 0). */
  errorRateMinTurns: number;
  /** SNS topic notified on alarm and recovery; none when unset or ''. */
  alarmTopicArn: pulumi.Input<string | undefined>;
  dashboardName: string;
  tags: pulumi.Input<Record<string, string>>;
}

/**
 * The error rate as one metric-math expression: the faults of each code (filled with 0 where a
 * code had none) over the turns, or 0 below the minimum traffic so that one failed turn of two
 * does not page. CloudWatch allows 10 metrics in an alarm: Turns and the nine fault codes.
 */
export function errorRateQueries(
  service: string,
  minTurns: number,
): aws.types.input.cloudwatch.MetricAlarmMetricQuery[] {
  const metric = (metricName: string, dimensions: Record<string, string>) => ({
    namespace: METRICS_NAMESPACE,
    metricName,
    dimensions: { [AGENT_DIMENSIONS.service]: service, ...dimensions },
    period: ERROR_RATE_PERIOD_SECONDS,
    stat: 'Sum',
  });
  const faults = FAULT_ERROR_CODES.map((code, i) => ({
    id: `e${i}`,
    label: code,
    metric: metric(AGENT_METRICS.turnErrors, { [AGENT_DIMENSIONS.errorCode]: code }),
    returnData: false,
  }));
  const sum = faults.map((f) => `FILL(${f.id}, 0)`).join(' + ');
  return [
    { id: 'turns', metric: metric(AGENT_METRICS.turns, {}), returnData: false },
    ...faults,
    {
      id: 'rate',
      label: 'share of turns ending in a fault',
      expression: `IF(FILL(turns, 0) >= ${minTurns}, (${sum}) / turns, 0)`,
      returnData: true,
    },
  ];
}

/** Metrics Insights: every Invocations series of the runtime, whatever other dimensions it has. */
export const invocationsQuery = (runtimeArn: string): string =>
  `SELECT SUM(${AGENTCORE_METRICS.invocations}) FROM "${AGENTCORE_METRICS.namespace}" WHERE ${AGENTCORE_METRICS.resourceDimension} = '${runtimeArn}'`;

export class AgentMonitoring extends pulumi.ComponentResource {
  declare readonly alarmNames: pulumi.Output<string[]>;

  constructor(name: string, args: AgentMonitoringArgs, opts?: pulumi.ComponentResourceOptions) {
    super('kokoro:agent:AgentMonitoring', name, {}, opts);
    const actions = pulumi.output(args.alarmTopicArn).apply((arn) => (arn ? [arn] : []));
    const notify = { alarmActions: actions, okActions: actions };
    const service = { [AGENT_DIMENSIONS.service]: args.service };

    const firstAudio = new aws.cloudwatch.MetricAlarm(
      `${name}-first-audio`,
      {
        ...notify,
        alarmDescription: `${args.service}: p95 first audio above ${args.firstAudioP95AlarmMs} ms (callers wait)`,
        namespace: METRICS_NAMESPACE,
        metricName: AGENT_METRICS.firstAudio,
        dimensions: service,
        extendedStatistic: 'p95',
        period: 60,
        evaluationPeriods: 5,
        datapointsToAlarm: 3,
        comparisonOperator: 'GreaterThanThreshold',
        threshold: args.firstAudioP95AlarmMs,
        treatMissingData: 'notBreaching', // no turns: nobody waits
        tags: args.tags,
      },
      { parent: this },
    );
    const errorRate = new aws.cloudwatch.MetricAlarm(
      `${name}-error-rate`,
      {
        ...notify,
        alarmDescription: `${args.service}: more than ${Math.round(args.errorRateAlarm * 1000) / 10}% of turns end in a fault (at ${args.errorRateMinTurns} turns or more per 5 minutes)`,
        metricQueries: errorRateQueries(args.service, args.errorRateMinTurns),
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
        comparisonOperator: 'GreaterThanThreshold',
        threshold: args.errorRateAlarm,
        treatMissingData: 'notBreaching',
        tags: args.tags,
      },
      { parent: this },
    );

    // Missing metrics = AgentCore counts invocations but the agent reports no finished turn. Each
    // half alone means nothing (idle: no invocations and no turns), so the two alarms carry no
    // actions and a composite alarm pages when both are in ALARM.
    const invoked = new aws.cloudwatch.MetricAlarm(
      `${name}-invoked`,
      {
        name: `${name}-invoked`, // named: the composite alarm's rule names it
        alarmDescription: `${args.service}: AgentCore reports invocations (half of the missing-metrics alarm)`,
        metricQueries: [
          {
            id: 'invocations',
            expression: pulumi.output(args.runtimeArn).apply(invocationsQuery),
            period: MISSING_METRICS_PERIOD_SECONDS,
            returnData: true,
          },
        ],
        evaluationPeriods: 1,
        comparisonOperator: 'GreaterThanOrEqualToThreshold',
        threshold: MISSING_METRICS_MIN_INVOCATIONS,
        treatMissingData: 'notBreaching',
        tags: args.tags,
      },
      { parent: this },
    );
    const noTurns = new aws.cloudwatch.MetricAlarm(
      `${name}-no-turns`,
      {
        name: `${name}-no-turns`,
        alarmDescription: `${args.service}: no ${METRICS_NAMESPACE}/${AGENT_METRICS.turns} (half of the missing-metrics alarm)`,
        namespace: METRICS_NAMESPACE,
        metricName: AGENT_METRICS.turns,
        dimensions: service,
        statistic: 'SampleCount',
        period: MISSING_METRICS_PERIOD_SECONDS,
        evaluationPeriods: 1,
        comparisonOperator: 'LessThanThreshold',
        threshold: 1,
        treatMissingData: 'breaching', // no sample at all is exactly what this half looks for
        tags: args.tags,
      },
      { parent: this },
    );
    const missing = new aws.cloudwatch.CompositeAlarm(
      `${name}-missing-metrics`,
      {
        ...notify,
        alarmName: `${name}-missing-metrics`,
        alarmDescription: `${args.service}: AgentCore reports invocations but the agent published no turn metrics for 15 minutes (AGENT_METRICS, EMF extraction or the log group)`,
        alarmRule: pulumi.interpolate`ALARM("${invoked.name}") AND ALARM("${noTurns.name}")`,
        tags: args.tags,
      },
      { parent: this },
    );

    new aws.cloudwatch.Dashboard(
      `${name}-dashboard`,
      {
        dashboardName: args.dashboardName,
        dashboardBody: pulumi
          .all([args.runtimeArn, args.endpointName, args.variantName, args.region])
          .apply(([runtimeArn, endpointName, variantName, region]) =>
            agentDashboardBody({
              service: args.service,
              runtimeArn,
              endpointName,
              variantName,
              region,
              firstAudioP95AlarmMs: args.firstAudioP95AlarmMs,
            }),
          ),
      },
      { parent: this },
    );

    this.alarmNames = pulumi.all([firstAudio.name, errorRate.name, missing.alarmName]);
    this.registerOutputs({ alarmNames: this.alarmNames });
  }
}
