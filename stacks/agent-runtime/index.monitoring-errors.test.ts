// agent-runtime under Pulumi mocks with bad observability settings: each stops the preview before
// any resource is declared, naming the key. (Each case imports the program afresh: a query string
// makes it a new module.)
import { expect, test } from '@jest/globals';
import { endpointOutputs, foundationOutputs } from '../shared/outputs.ts';
import { fakeOutputs, organization, region, runProgram } from '../testing/mocks.ts';

const cases: [string, string, RegExp][] = [
  [
    'logRetentionDays',
    '10',
    /^config 'kokoro-agent-runtime:logRetentionDays' must be a retention CloudWatch Logs accepts \(1, 3, 5, 7, 14, 30, .*\), got 10$/,
  ],
  [
    'firstAudioP95AlarmMs',
    '50',
    /^config 'kokoro-agent-runtime:firstAudioP95AlarmMs' must be an integer in \[100, 60000\], got 50$/,
  ],
  ['errorRateAlarm', '1.5', /^config 'kokoro-agent-runtime:errorRateAlarm' must be a number in \[0.001, 1\], got 1.5$/],
  [
    'errorRateMinTurns',
    '0',
    /^config 'kokoro-agent-runtime:errorRateMinTurns' must be an integer in \[1, 100000\], got 0$/,
  ],
  ['alarmTopicArn', 'oncall', /^config 'alarmTopicArn' must be an SNS topic ARN, got 'oncall'$/],
];

test.each(cases)('%s %s is refused, naming the key', async (key, value, message) => {
  const options = {
    project: 'kokoro-agent-runtime',
    preview: true,
    config: { 'kokoro-agent-runtime:inboundAuth': 'iam', [`kokoro-agent-runtime:${key}`]: value },
    stackOutputs: {
      [`${organization}/kokoro-foundation/dev`]: fakeOutputs(foundationOutputs, { sttProvider: 'transcribe', region }),
      [`${organization}/kokoro-endpoint/dev`]: fakeOutputs(endpointOutputs),
    },
  };
  const program = new URL(`./index.ts?case=${key}`, import.meta.url);
  await expect(runProgram(program, options)).rejects.toThrow(message);
});
