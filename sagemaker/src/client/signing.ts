// SigV4 for SageMaker runtime calls: a signer on node:crypto hashing.
import { Sha256 } from '@smithy/core/checksum';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity } from '@smithy/types';

export const SIGNING_SERVICE = 'sagemaker';

export function createSigner(credentials: AwsCredentialIdentity, region: string): SignatureV4 {
  return new SignatureV4({ service: SIGNING_SERVICE, region, credentials, sha256: Sha256 });
}
