// Every policy of the kokoro-speech pack, in one array (index.ts hands it to PolicyPack; tests
// call each policy's validate function directly, without starting the pack's gRPC server).
import type { Policies } from '@pulumi/policy';
import {
  ecrScanOnPush,
  iamNoWildcardActions,
  iamNoWildcardResourceOnSensitiveActions,
  logGroupRetention,
  resourcesTagged,
  sagemakerApprovedInstanceTypes,
} from './other-policies.ts';
import { s3BucketHardened, s3NoPublicAcl, s3PolicyTlsOnly, s3PublicAccessBlocked } from './s3-policies.ts';
import {
  cloudfrontHttpsOnly,
  cloudfrontS3OriginAccessControl,
  cognitoPublicCodeClient,
  s3NoWebsite,
  s3PolicyCloudfrontScoped,
} from './web-policies.ts';

export const policies: Policies = [
  s3BucketHardened,
  s3PublicAccessBlocked,
  s3NoPublicAcl,
  s3PolicyTlsOnly,
  iamNoWildcardActions,
  iamNoWildcardResourceOnSensitiveActions,
  ecrScanOnPush,
  sagemakerApprovedInstanceTypes,
  resourcesTagged,
  logGroupRetention,
  cloudfrontHttpsOnly,
  cloudfrontS3OriginAccessControl,
  s3PolicyCloudfrontScoped,
  s3NoWebsite,
  cognitoPublicCodeClient,
];
