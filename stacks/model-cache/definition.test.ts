// The sync definition is valid ASL and wires the steps, retries and failure state as intended.
import { describe, expect, test } from '@jest/globals';
import aslValidator from 'asl-validator';
import {
  HUB_TRANSIENT_ERRORS,
  LAMBDA_TIMEOUT_ERRORS,
  LAMBDA_TRANSIENT_ERRORS,
  TASK_TIMEOUT_MARGIN_SECONDS,
  buildSyncDefinition,
} from './definition.ts';

const arn = (name: string) => `arn:aws:lambda:us-east-1:123456789012:function:${name}`;
const args = { resolveFunctionArn: arn('resolve'), copyFunctionArn: arn('copy'), manifestFunctionArn: arn('manifest') };
const definition = buildSyncDefinition(args) as any;

describe('buildSyncDefinition', () => {
  test('is valid Amazon States Language', () => {
    const { isValid, errorsText } = aslValidator(definition);
    expect(errorsText('\n')).toBe('');
    expect(isValid).toBe(true);
    expect(aslValidator({ ...definition, StartAt: 'Nowhere' }).isValid).toBe(false); // the check can fail
  });

  test('resolves, copies in a bounded Map, writes the manifest last', () => {
    expect(definition.StartAt).toBe('Resolve');
    expect(definition.States.Resolve).toMatchObject({ Resource: args.resolveFunctionArn, Next: 'CopyFiles' });
    expect(definition.States.CopyFiles).toMatchObject({
      Type: 'Map',
      MaxConcurrency: 8,
      ItemsPath: '$.files',
      Next: 'WriteManifest',
    });
    expect(definition.States.CopyFiles.ItemProcessor.States.CopyFile.Resource).toBe(args.copyFunctionArn);
    expect(definition.States.WriteManifest).toMatchObject({ Resource: args.manifestFunctionArn, End: true });
  });

  test('every task retries Lambda throttles and Hub throttling, and every failure ends in SyncFailed', () => {
    const tasks = [
      definition.States.Resolve,
      definition.States.CopyFiles.ItemProcessor.States.CopyFile,
      definition.States.WriteManifest,
    ];
    for (const task of tasks) {
      expect(task.Retry.map((r: any) => r.ErrorEquals)).toEqual([
        LAMBDA_TRANSIENT_ERRORS,
        HUB_TRANSIENT_ERRORS,
        LAMBDA_TIMEOUT_ERRORS,
      ]);
      expect(task.Retry.every((r: any) => r.BackoffRate > 1 && r.JitterStrategy === 'FULL')).toBe(true);
    }
    expect(LAMBDA_TRANSIENT_ERRORS).toContain('Lambda.TooManyRequestsException');
    expect(LAMBDA_TRANSIENT_ERRORS).toContain('Lambda.ClientExecutionTimeoutException');
    expect(tasks.flatMap((t) => t.Retry.flatMap((r: any) => r.ErrorEquals))).not.toContain('States.Timeout');
    for (const name of ['Resolve', 'CopyFiles', 'WriteManifest']) {
      expect(definition.States[name].Catch).toEqual([
        { ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'SyncFailed' },
      ]);
    }
    expect(definition.States.SyncFailed).toMatchObject({
      Type: 'Fail',
      ErrorPath: '$.error.Error',
      CausePath: '$.error.Cause',
    });
  });

  test("each Task waits longer than its Lambda's own timeout, so the Lambda's (retried) timeout comes first", () => {
    const tasks = {
      resolve: definition.States.Resolve,
      copy: definition.States.CopyFiles.ItemProcessor.States.CopyFile,
      manifest: definition.States.WriteManifest,
    };
    expect(Object.values(tasks).map((t) => t.TimeoutSeconds)).toEqual([120, 900, 120].map((s) => s + 60));
    expect(TASK_TIMEOUT_MARGIN_SECONDS).toBeGreaterThan(0);
    const custom = buildSyncDefinition({ ...args, functionTimeoutSeconds: { copy: 300 } }) as any;
    expect(custom.States.CopyFiles.ItemProcessor.States.CopyFile.TimeoutSeconds).toBe(360);
    expect(custom.States.Resolve.TimeoutSeconds).toBe(180);
  });

  test('refuses bad arguments with the field named', () => {
    expect(() => buildSyncDefinition({ ...args, functionTimeoutSeconds: { copy: 901 } })).toThrow(
      'functionTimeoutSeconds.copy must be an integer in [1, 900]',
    );
    expect(() => buildSyncDefinition({ ...args, maxConcurrency: 0 })).toThrow(/maxConcurrency/);
    expect(() => buildSyncDefinition({ ...args, copyFunctionArn: 'copy' })).toThrow(/copyFunctionArn/);
  });
});
