// The runtime URL of a region against the endpoint test cases AWS publishes with the HTTP/2 model
// (sagemaker-runtime-http2.json, smithy.rules#endpointTests; read on 2026-12-01).
import { describe, expect, test } from '@jest/globals';
import { runtimeEndpoint } from './endpoint.ts';

const bidi = (region: string, variant = {}) => runtimeEndpoint(undefined, region, 'bidi', variant).origin;

describe('runtimeEndpoint', () => {
  test('every partition the model names: runtime.sagemaker.{region}.{dnsSuffix}:8443', () => {
    expect(bidi('us-east-1')).toBe('https://runtime.sagemaker.us-east-1.amazonaws.com:8443');
    expect(bidi('cn-northwest-1')).toBe('https://runtime.sagemaker.cn-northwest-1.amazonaws.com.cn:8443');
    expect(bidi('us-gov-west-1')).toBe('https://runtime.sagemaker.us-gov-west-1.amazonaws.com:8443');
    expect(bidi('eusc-de-east-1')).toBe('https://runtime.sagemaker.eusc-de-east-1.amazonaws.eu:8443');
    expect(bidi('us-iso-east-1')).toBe('https://runtime.sagemaker.us-iso-east-1.c2s.ic.gov:8443');
    expect(bidi('us-isob-east-1')).toBe('https://runtime.sagemaker.us-isob-east-1.sc2s.sgov.gov:8443');
    expect(bidi('us-isof-south-1')).toBe('https://runtime.sagemaker.us-isof-south-1.csp.hci.ic.gov:8443');
    // A partition the model does not list falls to its generic rule: no port.
    expect(bidi('eu-isoe-west-1')).toBe('https://runtime.sagemaker.eu-isoe-west-1.cloud.adc-e.uk');
    // Regions newer than the partition table still resolve through its patterns.
    expect(bidi('ap-southeast-9')).toBe('https://runtime.sagemaker.ap-southeast-9.amazonaws.com:8443');
  });

  test('FIPS and dual-stack variants', () => {
    expect(bidi('us-east-1', { useFipsEndpoint: true })).toBe(
      'https://runtime-fips.sagemaker.us-east-1.amazonaws.com:8443',
    );
    expect(bidi('us-east-1', { useFipsEndpoint: true, useDualstackEndpoint: true })).toBe(
      'https://runtime-fips.sagemaker.us-east-1.api.aws:8443',
    );
    expect(bidi('us-gov-west-1', { useDualstackEndpoint: true })).toBe(
      'https://runtime.sagemaker.us-gov-west-1.api.aws:8443',
    );
    expect(bidi('cn-northwest-1', { useDualstackEndpoint: true })).toBe(
      'https://runtime.sagemaker.cn-northwest-1.api.amazonwebservices.com.cn:8443',
    );
    expect(bidi('eusc-de-east-1', { useFipsEndpoint: true })).toBe(
      'https://runtime-fips.sagemaker.eusc-de-east-1.amazonaws.eu:8443',
    );
    expect(bidi('eu-isoe-west-1', { useFipsEndpoint: true })).toBe(
      'https://runtime.sagemaker-fips.eu-isoe-west-1.cloud.adc-e.uk',
    );
  });

  test('a custom endpoint is used as given, never with FIPS or dual-stack; bad input names the variable', () => {
    expect(runtimeEndpoint('http://127.0.0.1:9000', 'eusc-de-east-1', 'bidi').origin).toBe('http://127.0.0.1:9000');
    expect(() => runtimeEndpoint('https://example.com', 'us-east-1', 'bidi', { useFipsEndpoint: true })).toThrow(
      /cannot be combined with the FIPS/,
    );
    expect(() => runtimeEndpoint(undefined, 'moon')).toThrow(
      /AWS_REGION must be a region name like us-east-1, got "moon"/,
    );
    expect(() => runtimeEndpoint(undefined, 'US-EAST-1')).toThrow(/AWS_REGION/);
    expect(() => runtimeEndpoint('ftp://x', 'us-east-1')).toThrow(/SAGEMAKER_RUNTIME_URL must be http\(s\):\/\//);
    expect(() => runtimeEndpoint('not a url', 'us-east-1')).toThrow(/SAGEMAKER_RUNTIME_URL/);
  });

  test('the response-stream API: the classic runtime host on 443', () => {
    expect(runtimeEndpoint(undefined, 'cn-north-1').origin).toBe(
      'https://runtime.sagemaker.cn-north-1.amazonaws.com.cn',
    );
  });
});
