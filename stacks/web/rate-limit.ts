// Optional WAF rate limiting for the distribution: one web ACL that blocks a client IP sending more
// than `limit` requests in 5 minutes. A web ACL for CloudFront must live in us-east-1 (scope
// CLOUDFRONT) whatever the stack's region. It sees what passes the distribution: page loads, and
// the runtime's traffic only in `same-origin` mode.
import * as aws from '@pulumi/aws';
import * as pulumi from '@pulumi/pulumi';

/** WAF's range for a rate-based rule's limit (requests per evaluation window). */
export const RATE_LIMIT_RANGE = { min: 10, max: 2_000_000_000 } as const;

export interface RateLimitArgs {
  /** Requests per client IP per 5 minutes before WAF blocks it. */
  limit: number;
  /** Name of the web ACL (WAF names are unique per scope and account). */
  aclName: string;
  tags: pulumi.Input<Record<string, string>>;
}

export function rateLimitedAcl(name: string, args: RateLimitArgs, opts?: pulumi.CustomResourceOptions) {
  const metric = (suffix: string) => ({
    cloudwatchMetricsEnabled: true,
    sampledRequestsEnabled: true,
    metricName: `${args.aclName}-${suffix}`,
  });
  return new aws.wafv2.WebAcl(
    name,
    {
      name: args.aclName,
      description: 'Rate limit per client IP for the voice agent page',
      region: 'us-east-1',
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      rules: [
        {
          name: 'rate-per-ip',
          priority: 0,
          action: { block: {} },
          statement: { rateBasedStatement: { limit: args.limit, aggregateKeyType: 'IP', evaluationWindowSec: 300 } },
          visibilityConfig: metric('rate-per-ip'),
        },
      ],
      visibilityConfig: metric('all'),
      tags: args.tags,
    },
    opts,
  );
}
