// CrossGuard policies for the page's hosting and sign-in: CloudFront serves over HTTPS only with a
// modern TLS policy, reaches S3 buckets only through origin access control and custom origins only
// over TLS 1.2; a bucket policy that lets CloudFront read names one distribution; no bucket is a
// website; Cognito app clients are public code-grant clients. Values unknown at preview are skipped.
import type { ResourceValidationPolicy } from '@pulumi/policy';

/** Security policies a distribution with its own certificate may use: TLS 1.2 or newer, current ciphers. */
export const modernTlsPolicies = ['TLSv1.2_2021', 'TLSv1.2_2025', 'TLSv1.3_2025'];

const DISTRIBUTION = 'aws:cloudfront/distribution:Distribution';
const asList = (v: unknown): any[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);

export const cloudfrontHttpsOnly: ResourceValidationPolicy = {
  name: 'cloudfront-https-only',
  description:
    'CloudFront behaviors redirect HTTP to HTTPS or refuse it; a distribution with its own certificate uses a TLS 1.2+ policy; custom origins are reached over TLS 1.2 only.',
  enforcementLevel: 'mandatory',
  validateResource: (args, report) => {
    if (args.type !== DISTRIBUTION) return;
    const behaviors = [args.props.defaultCacheBehavior, ...asList(args.props.orderedCacheBehaviors)].filter(Boolean);
    for (const b of behaviors) {
      if (b.viewerProtocolPolicy !== undefined && !['redirect-to-https', 'https-only'].includes(b.viewerProtocolPolicy))
        report(
          `behavior '${b.pathPattern ?? 'default'}' allows plain HTTP (viewerProtocolPolicy ${b.viewerProtocolPolicy})`,
        );
    }
    const certificate = args.props.viewerCertificate ?? {};
    const own = certificate.acmCertificateArn !== undefined || certificate.iamCertificateId !== undefined;
    if (own && !modernTlsPolicies.includes(certificate.minimumProtocolVersion)) {
      report(
        `minimumProtocolVersion ${certificate.minimumProtocolVersion ?? '(unset)'} is not one of ${modernTlsPolicies.join(', ')}`,
      );
    }
    for (const origin of asList(args.props.origins)) {
      const custom = origin?.customOriginConfig;
      if (custom === undefined) continue;
      if (custom.originProtocolPolicy !== undefined && custom.originProtocolPolicy !== 'https-only')
        report(`origin '${origin.originId}' is reached over ${custom.originProtocolPolicy}, not https-only`);
      const weak = asList(custom.originSslProtocols).filter((p) => p !== 'TLSv1.2');
      if (weak.length > 0) report(`origin '${origin.originId}' accepts ${weak.join(', ')}`);
    }
  },
};

/** An origin that is an S3 bucket (REST or website endpoint). */
const isS3Origin = (origin: any): boolean =>
  origin?.s3OriginConfig !== undefined ||
  (typeof origin?.domainName === 'string' && /\.s3([.-][a-z0-9-]+)*\.amazonaws\.com(\.cn)?$/.test(origin.domainName));

export const cloudfrontS3OriginAccessControl: ResourceValidationPolicy = {
  name: 'cloudfront-s3-origin-access-control',
  description:
    'CloudFront reads S3 buckets through origin access control only: no legacy origin access identity, no website endpoint (it cannot sign requests to one).',
  enforcementLevel: 'mandatory',
  validateResource: (args, report) => {
    if (args.type !== DISTRIBUTION) return;
    for (const origin of asList(args.props.origins).filter(isS3Origin)) {
      if (typeof origin.domainName === 'string' && origin.domainName.includes('s3-website'))
        report(`origin '${origin.originId}' is an S3 website endpoint, which serves the bucket publicly`);
      if (origin.s3OriginConfig?.originAccessIdentity) {
        report(`origin '${origin.originId}' uses a legacy origin access identity instead of origin access control`);
      }
      if (!origin.originAccessControlId) report(`origin '${origin.originId}' has no origin access control`);
    }
  },
};

const DISTRIBUTION_ARN = /^arn:aws[\w-]*:cloudfront::\d{12}:distribution\/[A-Z0-9]+$/;

/** The distribution ARNs a statement's condition pins AWS:SourceArn to (any case of the key). */
function sourceArns(condition: Record<string, Record<string, unknown>> | undefined): string[] {
  return Object.entries(condition ?? {})
    .filter(([operator]) => ['StringEquals', 'ArnEquals'].includes(operator))
    .flatMap(([, block]) =>
      Object.entries(block)
        .filter(([key]) => key.toLowerCase() === 'aws:sourcearn')
        .flatMap(([, value]) => asList(value)),
    );
}

export const s3PolicyCloudfrontScoped: ResourceValidationPolicy = {
  name: 's3-policy-cloudfront-scoped',
  description:
    'A bucket policy that lets the CloudFront service read names the distribution (AWS:SourceArn equals one distribution ARN), so no other distribution can serve the bucket.',
  enforcementLevel: 'mandatory',
  validateResource: (args, report) => {
    if (args.type !== 'aws:s3/bucketPolicy:BucketPolicy' || typeof args.props.policy !== 'string') return;
    for (const s of asList(JSON.parse(args.props.policy).Statement)) {
      const services = asList(s?.Principal?.Service);
      if (s?.Effect !== 'Allow' || !services.includes('cloudfront.amazonaws.com')) continue;
      const arns = sourceArns(s.Condition);
      if (arns.length === 0 || !arns.every((arn) => typeof arn === 'string' && DISTRIBUTION_ARN.test(arn)))
        report(`statement '${s.Sid ?? '?'}' lets CloudFront read without naming one distribution in AWS:SourceArn`);
    }
  },
};

export const s3NoWebsite: ResourceValidationPolicy = {
  name: 's3-no-website',
  description: 'No bucket is an S3 website (public, HTTP only); the page is served by CloudFront.',
  enforcementLevel: 'mandatory',
  validateResource: (args, report) => {
    if (args.type === 'aws:s3/bucketWebsiteConfiguration:BucketWebsiteConfiguration') {
      report('S3 website hosting serves the bucket publicly over HTTP: serve it through CloudFront instead');
    }
  },
};

/** Flows that send a user's password through the client instead of managed login. */
const passwordFlows = [
  'ALLOW_USER_PASSWORD_AUTH',
  'ALLOW_ADMIN_USER_PASSWORD_AUTH',
  'ADMIN_NO_SRP_AUTH',
  'USER_PASSWORD_AUTH',
];
const httpsOrLoopback = (url: string) =>
  url.startsWith('https://') || /^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?\//.test(url);

export const cognitoPublicCodeClient: ResourceValidationPolicy = {
  name: 'cognito-public-code-client',
  description:
    'Cognito app clients are public clients of the authorization code grant: no secret, no implicit or client-credentials grant, no password flows, callback and sign-out URLs over HTTPS.',
  enforcementLevel: 'mandatory',
  validateResource: (args, report) => {
    if (args.type !== 'aws:cognito/userPoolClient:UserPoolClient') return;
    const p = args.props;
    if (p.generateSecret === true) report('the client has a secret (a browser cannot keep one)');
    const grants = asList(p.allowedOauthFlows);
    if (grants.some((g) => g !== 'code')) report(`grants other than the code grant: ${grants.join(', ')}`);
    if (p.allowedOauthFlowsUserPoolClient === true && grants.length === 0) report('OAuth is on without the code grant');
    const passwords = asList(p.explicitAuthFlows).filter((f) => passwordFlows.includes(f));
    if (passwords.length > 0) report(`password flows bypass managed login: ${passwords.join(', ')}`);
    for (const url of [...asList(p.callbackUrls), ...asList(p.logoutUrls)]) {
      if (typeof url === 'string' && !httpsOrLoopback(url)) report(`'${url}' is not an https URL`);
    }
  },
};
