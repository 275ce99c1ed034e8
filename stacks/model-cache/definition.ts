// The weight sync's state machine (Amazon States Language), built by a plain function so it can be
// validated (asl-validator) and executed locally (aws-local-stepfunctions) in tests.
//
//   Resolve -> CopyFiles (Map, bounded concurrency: CopyFile per file) -> WriteManifest -> done
//   any failure after retries -> SyncFailed (Fail state carrying the error name and cause)

export interface SyncDefinitionArgs {
  resolveFunctionArn: string;
  copyFunctionArn: string;
  manifestFunctionArn: string;
  /** Files copied at once. Default 8. */
  maxConcurrency?: number;
  /** Seconds one copy may take (the copy Lambda's timeout). Default 900. */
  copyTimeoutSeconds?: number;
}

/** Lambda service hiccups and throttles (Lambda.TooManyRequestsException): retried with backoff. */
export const LAMBDA_TRANSIENT_ERRORS = [
  'Lambda.ServiceException',
  'Lambda.AWSLambdaException',
  'Lambda.SdkClientException',
  'Lambda.TooManyRequestsException',
];

/** Errors our handlers mark retryable (weights/src/errors.ts): Hub 429 and 5xx, broken downloads. */
export const HUB_TRANSIENT_ERRORS = ['HubThrottled', 'HubUnavailable', 'DownloadInterrupted'];

const retry = [
  {
    ErrorEquals: LAMBDA_TRANSIENT_ERRORS,
    IntervalSeconds: 2,
    MaxAttempts: 6,
    BackoffRate: 2,
    MaxDelaySeconds: 60,
    JitterStrategy: 'FULL',
  },
  {
    ErrorEquals: HUB_TRANSIENT_ERRORS,
    IntervalSeconds: 10,
    MaxAttempts: 5,
    BackoffRate: 2,
    MaxDelaySeconds: 120,
    JitterStrategy: 'FULL',
  },
];
const catchAll = [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'SyncFailed' }];

export function buildSyncDefinition(args: SyncDefinitionArgs): Record<string, unknown> {
  const maxConcurrency = args.maxConcurrency ?? 8;
  const copyTimeout = args.copyTimeoutSeconds ?? 900;
  if (!Number.isInteger(maxConcurrency) || maxConcurrency < 1 || maxConcurrency > 40) {
    throw new Error(`maxConcurrency must be an integer in [1, 40], got ${maxConcurrency}`);
  }
  for (const [field, arn] of Object.entries({
    resolveFunctionArn: args.resolveFunctionArn,
    copyFunctionArn: args.copyFunctionArn,
    manifestFunctionArn: args.manifestFunctionArn,
  })) {
    if (!/^arn:aws[\w-]*:lambda:[\w-]+:\d{12}:function:[\w-]+(:[\w$-]+)?$/.test(arn))
      throw new Error(`${field} must be a Lambda function ARN, got '${arn}'`);
  }
  return {
    Comment: 'Copy one pinned Hugging Face revision into S3, verified, manifest last.',
    StartAt: 'Resolve',
    TimeoutSeconds: 3 * 3600,
    States: {
      Resolve: {
        Type: 'Task',
        Comment: 'Resolve the revision to a commit and list the included files with sizes and digests.',
        Resource: args.resolveFunctionArn,
        TimeoutSeconds: 120,
        Retry: retry,
        Catch: catchAll,
        Next: 'CopyFiles',
      },
      CopyFiles: {
        Type: 'Map',
        Comment: 'Copy each file (streamed, hashed, multipart); files already present and matching are skipped.',
        ItemsPath: '$.files',
        MaxConcurrency: maxConcurrency,
        ItemSelector: {
          'repo.$': '$.repo',
          'commit.$': '$.commit',
          'bucket.$': '$.bucket',
          'keyPrefix.$': '$.keyPrefix',
          'file.$': '$$.Map.Item.Value',
        },
        ItemProcessor: {
          ProcessorConfig: { Mode: 'INLINE' },
          StartAt: 'CopyFile',
          States: {
            CopyFile: {
              Type: 'Task',
              Resource: args.copyFunctionArn,
              TimeoutSeconds: copyTimeout,
              Retry: retry,
              End: true,
            },
          },
        },
        ResultPath: '$.copied',
        Catch: catchAll,
        Next: 'WriteManifest',
      },
      WriteManifest: {
        Type: 'Task',
        Comment: 'Write manifest.json last: a prefix with a manifest is complete.',
        Resource: args.manifestFunctionArn,
        Parameters: {
          'repo.$': '$.repo',
          'commit.$': '$.commit',
          'bucket.$': '$.bucket',
          'keyPrefix.$': '$.keyPrefix',
          'files.$': '$.copied',
        },
        TimeoutSeconds: 120,
        Retry: retry,
        Catch: catchAll,
        End: true,
      },
      SyncFailed: {
        Type: 'Fail',
        Comment: 'The error name and cause of the step that failed.',
        ErrorPath: '$.error.Error',
        CausePath: '$.error.Cause',
      },
    },
  };
}
