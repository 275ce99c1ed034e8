// Target-tracking autoscaling of one endpoint variant on concurrent requests per model (the
// high-resolution metric reacts within a minute); a long scale-in cooldown keeps it from flapping.
import * as aws from '@pulumi/aws';
import * as pulumi from '@pulumi/pulumi';

export interface VariantAutoscalingArgs {
  endpointName: pulumi.Input<string>;
  variantName: string;
  minInstances: number;
  maxInstances: number;
  /** Concurrent requests per instance the policy aims for. */
  targetConcurrency: number;
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
    new aws.appautoscaling.Policy(
      `${name}-policy`,
      {
        policyType: 'TargetTrackingScaling',
        serviceNamespace: target.serviceNamespace,
        scalableDimension: target.scalableDimension,
        resourceId: target.resourceId,
        targetTrackingScalingPolicyConfiguration: {
          targetValue: args.targetConcurrency,
          predefinedMetricSpecification: {
            predefinedMetricType: 'SageMakerVariantConcurrentRequestsPerModelHighResolution',
          },
          scaleInCooldown: args.scaleInCooldownSeconds ?? 900,
          scaleOutCooldown: args.scaleOutCooldownSeconds ?? 60,
        },
      },
      { parent: this },
    );
    this.registerOutputs({});
  }
}
