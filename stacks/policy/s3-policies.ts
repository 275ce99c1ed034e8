// CrossGuard policies for S3: every bucket encrypted, not public, TLS-only.
import type { PolicyResource, ResourceValidationPolicy, StackValidationPolicy } from '@pulumi/policy';

const publicAcls = new Set(['public-read', 'public-read-write', 'authenticated-read']);

/** The bucket policy statement that denies every request made without TLS, if present. */
function deniesInsecureTransport(policy: unknown): boolean {
  const doc = typeof policy === 'string' ? JSON.parse(policy) : policy;
  const statements: any[] = Array.isArray(doc?.Statement) ? doc.Statement : [doc?.Statement];
  return statements.some(
    (s) =>
      s?.Effect === 'Deny' &&
      (s.Principal === '*' || s.Principal?.AWS === '*') &&
      [s.Action].flat().some((a: string) => a === 's3:*') &&
      String(s.Condition?.Bool?.['aws:SecureTransport']) === 'false',
  );
}

export const s3PublicAccessBlocked: ResourceValidationPolicy = {
  name: 's3-public-access-blocked',
  description: 'S3 public access blocks must turn on all four settings.',
  enforcementLevel: 'mandatory',
  validateResource: (args, report) => {
    if (args.type !== 'aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock') return;
    const off = ['blockPublicAcls', 'blockPublicPolicy', 'ignorePublicAcls', 'restrictPublicBuckets'].filter(
      (k) => args.props[k] !== true,
    );
    if (off.length > 0) report(`public access block leaves ${off.join(', ')} off`);
  },
};

export const s3NoPublicAcl: ResourceValidationPolicy = {
  name: 's3-no-public-acl',
  description: 'S3 buckets and bucket ACLs must not grant public or any-AWS-user access.',
  enforcementLevel: 'mandatory',
  validateResource: (args, report) => {
    if (args.type !== 'aws:s3/bucket:Bucket' && args.type !== 'aws:s3/bucketAcl:BucketAcl') return;
    if (publicAcls.has(args.props.acl)) report(`canned ACL '${args.props.acl}' makes the bucket public`);
  },
};

export const s3PolicyTlsOnly: ResourceValidationPolicy = {
  name: 's3-policy-tls-only',
  description: 'Bucket policies must deny requests without TLS and must not allow anonymous principals.',
  enforcementLevel: 'mandatory',
  validateResource: (args, report) => {
    if (args.type !== 'aws:s3/bucketPolicy:BucketPolicy' || typeof args.props.policy !== 'string') return;
    if (!deniesInsecureTransport(args.props.policy)) report('bucket policy does not deny aws:SecureTransport=false');
    const doc = JSON.parse(args.props.policy);
    for (const s of [doc.Statement].flat()) {
      if (s?.Effect === 'Allow' && (s.Principal === '*' || s.Principal?.AWS === '*'))
        report(`statement '${s.Sid ?? '?'}' allows any principal`);
    }
  },
};

/** Resources of `type` that depend on `bucket` (they name it in an input). */
function attached(bucket: PolicyResource, type: string, all: PolicyResource[]): PolicyResource[] {
  return all.filter((r) => r.type === type && r.dependencies.some((d) => d.urn === bucket.urn));
}

export const s3BucketHardened: StackValidationPolicy = {
  name: 's3-bucket-hardened',
  description: 'Every S3 bucket has default encryption, a public access block and a TLS-only bucket policy.',
  enforcementLevel: 'mandatory',
  validateStack: (args, report) => {
    for (const bucket of args.resources.filter((r) => r.type === 'aws:s3/bucket:Bucket')) {
      const encryption = attached(
        bucket,
        'aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration',
        args.resources,
      );
      const algorithms = encryption.flatMap((e) =>
        (e.props.rules ?? []).map((r: any) => r?.applyServerSideEncryptionByDefault?.sseAlgorithm),
      );
      if (!algorithms.some((a) => a === 'aws:kms' || a === 'aws:kms:dsse' || a === 'AES256'))
        report(`bucket '${bucket.name}' has no default encryption`, bucket.urn);
      if (attached(bucket, 'aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock', args.resources).length === 0) {
        report(`bucket '${bucket.name}' has no public access block`, bucket.urn);
      }
      const policies = attached(bucket, 'aws:s3/bucketPolicy:BucketPolicy', args.resources);
      if (!policies.some((p) => typeof p.props.policy === 'string' && deniesInsecureTransport(p.props.policy))) {
        report(`bucket '${bucket.name}' has no TLS-only bucket policy`, bucket.urn);
      }
    }
  },
};
