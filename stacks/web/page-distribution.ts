// The CloudFront distribution customers open: the page bucket through origin access control
// (HTTPS only, the page's security headers), and in `same-origin` mode a `/runtimes/*` behavior
// to the AgentCore data plane (caching off, every viewer header but Host, query strings; CloudFront
// passes WebSocket upgrades through). The managed policy ids and why: docs/design/web-and-sign-in.md.
import * as aws from '@pulumi/aws';
import * as pulumi from '@pulumi/pulumi';
import type { PageBucket } from './page-bucket.ts';
import {
  agentCoreHost,
  contentSecurityPolicy,
  hstsMaxAgeSeconds,
  permissionsPolicy,
  type RuntimeAccess,
} from './page-headers.ts';

/** AWS's managed cache and origin request policies (ids from their pages, fixed by AWS). */
export const managedPolicies = {
  cachingOptimized: '658327ea-f89d-4fab-a63d-7e88639e58f6',
  cachingDisabled: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad',
  allViewerExceptHostHeader: 'b689b0a8-53d0-40ab-baf2-68738e2966ac',
} as const;

/** The oldest TLS a distribution with its own certificate accepts (CloudFront's current default). */
export const MINIMUM_TLS = 'TLSv1.2_2021';

export interface PageDistributionArgs {
  bucket: PageBucket;
  region: string;
  runtimeAccess: RuntimeAccess;
  loginOrigin: string;
  /** A custom domain for the page, and its ACM certificate (which CloudFront needs in us-east-1). */
  customDomain?: { name: string; certificateArn: string };
  priceClass: string;
  webAclArn?: pulumi.Input<string>;
  tags: pulumi.Input<Record<string, string>>;
}

export class PageDistribution extends pulumi.ComponentResource {
  declare readonly distributionId: pulumi.Output<string>;
  declare readonly distributionArn: pulumi.Output<string>;
  declare readonly domainName: pulumi.Output<string>;

  constructor(name: string, args: PageDistributionArgs, opts?: pulumi.ComponentResourceOptions) {
    super('kokoro:web:PageDistribution', name, {}, opts);
    const parent = { parent: this };
    const oac = new aws.cloudfront.OriginAccessControl(
      `${name}-oac`,
      {
        description: 'The page bucket, read by this distribution only',
        originAccessControlOriginType: 's3',
        signingBehavior: 'always',
        signingProtocol: 'sigv4',
      },
      parent,
    );
    const headers = new aws.cloudfront.ResponseHeadersPolicy(
      `${name}-headers`,
      {
        comment: 'The page: its content security policy and security headers',
        securityHeadersConfig: {
          contentSecurityPolicy: {
            contentSecurityPolicy: contentSecurityPolicy({
              region: args.region,
              runtimeAccess: args.runtimeAccess,
              loginOrigin: args.loginOrigin,
            }),
            override: true,
          },
          strictTransportSecurity: {
            accessControlMaxAgeSec: hstsMaxAgeSeconds,
            includeSubdomains: true,
            override: true,
          },
          contentTypeOptions: { override: true },
          frameOptions: { frameOption: 'DENY', override: true },
          referrerPolicy: { referrerPolicy: 'no-referrer', override: true },
        },
        customHeadersConfig: {
          items: [
            { header: 'Permissions-Policy', value: permissionsPolicy, override: true },
            { header: 'Cross-Origin-Opener-Policy', value: 'same-origin', override: true },
          ],
        },
      },
      parent,
    );

    const sameOrigin = args.runtimeAccess === 'same-origin';
    const distribution = new aws.cloudfront.Distribution(
      name,
      {
        enabled: true,
        comment: 'kokoro-speech: the voice agent page',
        defaultRootObject: 'index.html',
        httpVersion: 'http2and3',
        isIpv6Enabled: true,
        priceClass: args.priceClass,
        ...(args.customDomain === undefined ? {} : { aliases: [args.customDomain.name] }),
        origins: [
          { originId: 'page', domainName: args.bucket.regionalDomainName, originAccessControlId: oac.id },
          ...(sameOrigin
            ? [
                {
                  originId: 'agentcore',
                  domainName: agentCoreHost(args.region),
                  customOriginConfig: {
                    httpPort: 80,
                    httpsPort: 443,
                    originProtocolPolicy: 'https-only',
                    originSslProtocols: ['TLSv1.2'],
                    // Longest wait for the next bytes of a streamed answer without a quota increase.
                    originReadTimeout: 60,
                    originKeepaliveTimeout: 60,
                  },
                },
              ]
            : []),
        ],
        defaultCacheBehavior: {
          targetOriginId: 'page',
          viewerProtocolPolicy: 'redirect-to-https',
          allowedMethods: ['GET', 'HEAD', 'OPTIONS'],
          cachedMethods: ['GET', 'HEAD'],
          cachePolicyId: managedPolicies.cachingOptimized,
          responseHeadersPolicyId: headers.id,
          compress: true,
        },
        orderedCacheBehaviors: sameOrigin
          ? [
              {
                pathPattern: '/runtimes/*',
                targetOriginId: 'agentcore',
                viewerProtocolPolicy: 'https-only',
                allowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
                cachedMethods: ['GET', 'HEAD'],
                cachePolicyId: managedPolicies.cachingDisabled,
                originRequestPolicyId: managedPolicies.allViewerExceptHostHeader,
                compress: false,
              },
            ]
          : [],
        restrictions: { geoRestriction: { restrictionType: 'none' } },
        viewerCertificate:
          args.customDomain === undefined
            ? { cloudfrontDefaultCertificate: true }
            : {
                acmCertificateArn: args.customDomain.certificateArn,
                sslSupportMethod: 'sni-only',
                minimumProtocolVersion: MINIMUM_TLS,
              },
        ...(args.webAclArn === undefined ? {} : { webAclId: args.webAclArn }),
        tags: args.tags,
      },
      parent,
    );
    args.bucket.readableBy(distribution.arn);

    this.distributionId = distribution.id;
    this.distributionArn = distribution.arn;
    this.domainName = distribution.domainName;
    this.registerOutputs({ distributionId: this.distributionId, domainName: this.domainName });
  }
}
