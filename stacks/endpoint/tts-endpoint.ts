// The Kokoro SageMaker endpoint: Model (image + uncompressed S3Prefix weights), EndpointConfiguration
// and Endpoint. Model and configuration carry no fixed names, so any change to the image, the weights
// or the variant replaces them under new names and the Endpoint (fixed name) is updated in place:
// SageMaker rolls blue/green to the new configuration without downtime.
import * as aws from '@pulumi/aws';
import * as pulumi from '@pulumi/pulumi';

export interface TtsEndpointArgs {
  endpointName: pulumi.Input<string>;
  imageUri: pulumi.Input<string>;
  executionRoleArn: pulumi.Input<string>;
  /** s3://bucket/prefix/ of the uncompressed weights (must end in '/'). */
  modelDataUri: pulumi.Input<string>;
  environment: pulumi.Input<Record<string, string>>;
  instanceType: string;
  /** InferenceAmiVersion of the variant (its GPU driver). Default: none, SageMaker's default AMI. */
  inferenceAmiVersion?: string;
  initialInstanceCount: number;
  variantName: string;
  containerStartupTimeoutSeconds: number;
  modelDownloadTimeoutSeconds: number;
  /** Alarm names that roll a deployment back (and the bake time watched before old instances go). */
  rollbackAlarmNames: pulumi.Input<string>[];
  bakeSeconds?: number;
  /** What must exist before the model (and so its containers) starts: e.g. the role's lexicon grant. */
  modelDependsOn?: pulumi.Input<pulumi.Resource>[];
  tags: pulumi.Input<Record<string, string>>;
}

/** ModelDataSource for an uncompressed S3 prefix; SageMaker lays its objects out under /opt/ml/model. */
export function modelDataSource(uri: string): aws.types.input.sagemaker.ModelPrimaryContainerModelDataSource {
  if (!/^s3:\/\/[a-z0-9.-]{3,63}\/.*\/$/.test(uri)) {
    throw new Error(`modelDataUri '${uri}' must be s3://bucket/prefix/ ending in '/'`);
  }
  return { s3DataSources: [{ s3Uri: uri, s3DataType: 'S3Prefix', compressionType: 'None' }] };
}

/** The model-cache URI, checked to lie under the prefix the SageMaker role may read. */
export function weightsUnderPrefix(uri: string, bucket: string, prefix: string): string {
  const allowed = `s3://${bucket}/${prefix}`;
  if (!uri.startsWith(allowed)) {
    throw new Error(`modelDataUri '${uri}' is outside '${allowed}', the only prefix the SageMaker role may read`);
  }
  return uri;
}

export class TtsEndpoint extends pulumi.ComponentResource {
  declare readonly endpointName: pulumi.Output<string>;
  declare readonly endpointArn: pulumi.Output<string>;
  declare readonly endpointConfigName: pulumi.Output<string>;
  declare readonly modelName: pulumi.Output<string>;

  constructor(name: string, args: TtsEndpointArgs, opts?: pulumi.ComponentResourceOptions) {
    super('kokoro:endpoint:TtsEndpoint', name, {}, opts);
    const model = new aws.sagemaker.Model(
      `${name}-model`,
      {
        executionRoleArn: args.executionRoleArn,
        primaryContainer: {
          image: args.imageUri,
          mode: 'SingleModel',
          environment: args.environment,
          modelDataSource: pulumi.output(args.modelDataUri).apply(modelDataSource),
        },
        tags: args.tags,
      },
      { parent: this, dependsOn: args.modelDependsOn ?? [] },
    );

    // No VolumeSizeInGB: g5 instances carry NVMe instance storage and reject it.
    const config = new aws.sagemaker.EndpointConfiguration(
      `${name}-config`,
      {
        productionVariants: [
          {
            variantName: args.variantName,
            modelName: model.name,
            instanceType: args.instanceType,
            ...(args.inferenceAmiVersion === undefined ? {} : { inferenceAmiVersion: args.inferenceAmiVersion }),
            initialInstanceCount: args.initialInstanceCount,
            containerStartupHealthCheckTimeoutInSeconds: args.containerStartupTimeoutSeconds,
            modelDataDownloadTimeoutInSeconds: args.modelDownloadTimeoutSeconds,
            routingConfigs: [{ routingStrategy: 'LEAST_OUTSTANDING_REQUESTS' }],
          },
        ],
        tags: args.tags,
      },
      { parent: this },
    );

    const bake = args.bakeSeconds ?? 120;
    const endpoint = new aws.sagemaker.Endpoint(
      name,
      {
        name: args.endpointName,
        endpointConfigName: config.name,
        deploymentConfig: {
          blueGreenUpdatePolicy: {
            trafficRoutingConfiguration: { type: 'ALL_AT_ONCE', waitIntervalInSeconds: bake },
            // Streaming sessions on the old fleet get this long to finish before it is terminated.
            terminationWaitInSeconds: 300,
            maximumExecutionTimeoutInSeconds: 3600,
          },
          autoRollbackConfiguration: { alarms: args.rollbackAlarmNames.map((alarmName) => ({ alarmName })) },
        },
        tags: args.tags,
      },
      { parent: this },
    );

    this.endpointName = endpoint.name;
    this.endpointArn = endpoint.arn;
    this.endpointConfigName = config.name;
    this.modelName = model.name;
    this.registerOutputs({
      endpointName: this.endpointName,
      endpointArn: this.endpointArn,
      endpointConfigName: this.endpointConfigName,
      modelName: this.modelName,
    });
  }
}
