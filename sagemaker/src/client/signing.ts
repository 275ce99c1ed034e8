// SigV4 for SageMaker runtime calls: a signer on node:crypto hashing, and the runtime endpoint URL.
import { Sha256 } from '@smithy/core/checksum';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity } from '@smithy/types';

export const SIGNING_SERVICE = 'sagemaker';

export function createSigner(credentials: AwsCredentialIdentity, region: string): SignatureV4 {
  return new SignatureV4({ service: SIGNING_SERVICE, region, credentials, sha256: Sha256 });
}

/** The runtime endpoint: the given URL, or the regional one (bidi streams listen on 8443). */
export function runtimeEndpoint(endpoint: string | undefined, region: string, port?: number): URL {
  if (!/^[a-z]{2}(-[a-z]+)+-\d+$/.test(region))
    throw new TypeError(`AWS_REGION must be a region name like us-east-1, got ${JSON.stringify(region)}`);
  const url = new URL(endpoint ?? `https://runtime.sagemaker.${region}.amazonaws.com${port ? `:${port}` : ''}`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`SAGEMAKER_RUNTIME_URL must be http(s)://, got ${JSON.stringify(endpoint)}`);
  return url;
}
