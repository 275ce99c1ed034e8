// Target-tracking autoscaling of one endpoint variant on the container's own load signal: the
// LoadRatio metric (sessions admitted / the instance's current capacity estimate, averaged over
// the instances) that every container publishes each minute as an Embedded Metric Format log line
// (container/README.md, Load metrics). SageMaker's ConcurrentRequestsPerModel is not used by
// default: AWS does not say whether it counts long-lived bidirectional streams, and a concurrency
// target is a guess of per-instance capacity that the container measures itself (stacks/README.md,
// Autoscaling). It can still be added (`concurrencyTarget`) as a second policy: target tracking
// then scales out when either policy asks and in only when both agree. A long scale-in cooldown
// keeps it from flapping.
import * as aws from '@pulumi/aws';
import * as pulumi from '@pulumi/pulumi';
import { CONTAINER_METRICS, METRICS_NAMESPACE } from '../shared/metrics.ts';

/** What the container publishes (container/src/metrics/load-metrics.ts; the names: protocol metric-names.ts). */
export const LOAD_METRIC_NAMESPACE = METRICS_NAMESPACE;
export const LOAD_RATIO_METRIC = CONTAINER_METRICS.loadRatio;
export const REFUSALS_METRIC = CONTAINER_METRICS.refusals;

export interface VariantAutoscalingArgs {
  endpointName: pulumi.Input<string>;
  variantName: string;
  minInstances: number;
  maxInstances: number;
  /** The LoadRatio (admitted sessions / capacity, averaged over instances) the policy aims for (0-1). */
  targetLoadRatio: number;
  /** Also track SageMaker's concurrent requests per instance at this value (default: not). */
  concurrencyTarget?: number;
  /** Default 900 s: scale-out takes ~5 minutes, so scaling in quickly would flap. */
  scaleInCooldownSeconds?: number;
  /** Default 60 s. */
  scaleOutCooldownSeconds?: number;
  tags: pulumi.Input<Record<string, string>>;
}

export class VariantAutoscaling extends pulumi.ComponentResource {
  constructor(name: string, args: VariantAutoscalingArgs, opts?: pulumi.ComponentResourceOptions) {
    super('kokoro:endpoint:VariantAutoscaling', name, {}, opts);
    if (args.minInstances < 1 || args.maxInstances < args.minInstances) {
      throw new Error(
        `autoscaling needs 1 <= minInstances (${args.minInstances}) <= maxInstances (${args.maxInstances})`,
      );
    }
    if (!(args.targetLoadRatio > 0 && args.targetLoadRatio <= 1))
      throw new Error(`targetLoadRatio must be above 0 and at most 1, not ${args.targetLoadRatio}`);
    const target = new aws.appautoscaling.Target(
      `${name}-target`,
      {
        serviceNamespace: 'sagemaker',
        scalableDimension: 'sagemaker:variant:DesiredInstanceCount',
        resourceId: pulumi.interpolate`endpoint/${args.endpointName}/variant/${args.variantName}`,
        minCapacity: args.minInstances,
        maxCapacity: args.maxInstances,
        tags: args.tags,
      },
      { parent: this },
    );
    const cooldowns = {
      scaleInCooldown: args.scaleInCooldownSeconds ?? 900,
      scaleOutCooldown: args.scaleOutCooldownSeconds ?? 60,
    };
    new aws.appautoscaling.Policy(
      `${name}-load`,
      {
        policyType: 'TargetTrackingScaling',
        serviceNamespace: target.serviceNamespace,
        scalableDimension: target.scalableDimension,
        resourceId: target.resourceId,
        targetTrackingScalingPolicyConfiguration: {
          targetValue: args.targetLoadRatio,
          customizedMetricSpecification: {
            namespace: LOAD_METRIC_NAMESPACE,
            metricName: LOAD_RATIO_METRIC,
            statistic: 'Average',
            dimensions: [
              { name: 'EndpointName', value: args.endpointName },
              { name: 'VariantName', value: args.variantName },
            ],
          },
          ...cooldowns,
        },
      },
      { parent: this },
    );
    if (args.concurrencyTarget !== undefined)
      new aws.appautoscaling.Policy(
        `${name}-policy`,
        {
          policyType: 'TargetTrackingScaling',
          serviceNamespace: target.serviceNamespace,
          scalableDimension: target.scalableDimension,
          resourceId: target.resourceId,
          targetTrackingScalingPolicyConfiguration: {
            targetValue: args.concurrencyTarget,
            predefinedMetricSpecification: {
              predefinedMetricType: 'SageMakerVariantConcurrentRequestsPerModelHighResolution',
            },
            ...cooldowns,
          },
        },
        { parent: this },
      );
    this.registerOutputs({});
  }
}
