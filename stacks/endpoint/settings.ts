// The endpoint stack's settings, read once from its config with their defaults and checked before
// anything is declared (a bad value fails `pulumi preview` naming the key): one typed object, as
// pulumi-awsx's components take their args, that index.ts hands to the components.
import * as pulumi from '@pulumi/pulumi';
import { intSetting } from '../shared/index.ts';
import { parseLexiconRevision, parseLexiconSetting, type LexiconLocation } from './lexicon.ts';

export const DEVICES = ['cuda', 'cpu'] as const;
export const DTYPES = ['fp32', 'fp16', 'q8', 'q4', 'q4f16'] as const;

export interface EndpointSettings {
  instanceType: string;
  variantName: string;
  device: (typeof DEVICES)[number];
  dtype: (typeof DTYPES)[number];
  initialInstanceCount: number;
  /** The container's limits (its environment variables), where set. */
  limits: Record<string, string>;
  alarmTopicArn: string | undefined;
  lexicon: LexiconLocation | undefined;
  lexiconRevision: string | undefined;
  /** `inferenceAmiVersion` as configured (chooseInferenceAmi checks it against the image). */
  inferenceAmiVersion: string | undefined;
  latencyAlarmMs: number;
  refusalAlarmPerMinute: number;
  containerStartupTimeoutSeconds: number;
  modelDownloadTimeoutSeconds: number;
  /** Off (undefined) while changing instanceType: SageMaker refuses to change an autoscaled variant's type. */
  autoscaling:
    | {
        minInstances: number;
        maxInstances: number;
        targetLoadRatio: number;
        concurrencyTarget?: number;
        scaleInCooldownSeconds: number;
      }
    | undefined;
}

export function readEndpointSettings(config: pulumi.Config = new pulumi.Config()): EndpointSettings {
  const limits = {
    MAX_CONCURRENT_RUNS: config.getNumber('maxConcurrentRuns'),
    MAX_TEXT_CHARS: config.getNumber('maxTextChars'),
    MAX_QUEUED_PER_SESSION: config.getNumber('maxQueuedPerSession'),
    MAX_SESSIONS: config.getNumber('maxSessions'),
    ADMISSION_MAX_UTILIZATION: config.getNumber('admissionMaxUtilization'),
  };
  const lexicon = config.get('lexicon');
  return {
    instanceType: config.get('instanceType') ?? 'ml.g5.xlarge',
    variantName: config.get('variantName') ?? 'AllTraffic',
    device: config.get('device', { allowedValues: [...DEVICES] }) ?? 'cuda',
    dtype: config.get('dtype', { allowedValues: [...DTYPES] }) ?? 'fp32',
    initialInstanceCount: intSetting(config, 'initialInstanceCount', 1, { min: 1, max: 20 }),
    limits: Object.fromEntries(
      Object.entries(limits)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, String(v)]),
    ),
    alarmTopicArn: config.get('alarmTopicArn'),
    lexicon: lexicon === undefined ? undefined : parseLexiconSetting(lexicon),
    lexiconRevision: parseLexiconRevision(config.get('lexiconRevision'), lexicon),
    inferenceAmiVersion: config.get('inferenceAmiVersion'),
    latencyAlarmMs: intSetting(config, 'latencyAlarmMs', 1000, { min: 10, max: 60_000 }),
    refusalAlarmPerMinute: intSetting(config, 'refusalAlarmPerMinute', 1, { min: 1, max: 100_000 }),
    containerStartupTimeoutSeconds: intSetting(config, 'containerStartupTimeoutSeconds', 600, { min: 60, max: 3600 }),
    modelDownloadTimeoutSeconds: intSetting(config, 'modelDownloadTimeoutSeconds', 600, { min: 60, max: 3600 }),
    autoscaling:
      (config.getBoolean('autoscaling') ?? true)
        ? {
            minInstances: intSetting(config, 'minInstances', 1, { min: 1, max: 20 }),
            maxInstances: intSetting(config, 'maxInstances', 2, { min: 1, max: 20 }),
            targetLoadRatio: loadRatioSetting(config.getNumber('targetLoadRatio')),
            ...(config.getNumber('concurrencyTarget') === undefined
              ? {}
              : { concurrencyTarget: intSetting(config, 'concurrencyTarget', 8, { min: 1, max: 1000 }) }),
            scaleInCooldownSeconds: intSetting(config, 'scaleInCooldownSeconds', 900, { min: 0, max: 3600 }),
          }
        : undefined,
  };
}

/** `targetLoadRatio`: 0.7 by default (scale out at 70 % of what admission control admits). */
function loadRatioSetting(value: number | undefined): number {
  if (value === undefined) return 0.7;
  if (!(value >= 0.1 && value <= 1))
    throw new Error(
      `config 'targetLoadRatio' must be 0.1 to 1 (a share of the capacity admission control admits), not ${value}`,
    );
  return value;
}
