// web: what customers open and sign in with, deployed before the agent runtime (whose JWT
// authorizer reads this layer's user pool and client): the page's private bucket, the CloudFront
// distribution that serves it (and, in `same-origin` mode, the runtime under /runtimes/*), the
// Cognito user pool with managed login and the page's app client, and optional WAF rate limiting.
// The files themselves come later, from the site layer (they need the runtime's ARN).
import * as aws from '@pulumi/aws';
import * as pulumi from '@pulumi/pulumi';
import { cognitoDiscoveryUrl, cognitoIssuer } from '../shared/cognito.ts';
import {
  defaultTags,
  intSetting,
  projectNames,
  requireFoundationRegion,
  resourceName,
  stackRef,
} from '../shared/index.ts';
import { PageBucket } from './page-bucket.ts';
import { PageDistribution } from './page-distribution.ts';
import type { RuntimeAccess } from './page-headers.ts';
import { RATE_LIMIT_RANGE, rateLimitedAcl } from './rate-limit.ts';
import { PAGE_SCOPES, SignIn, checkLoginDomainPrefix, loginDomainPrefix, loginOrigin, type Mfa } from './sign-in.ts';

const config = new pulumi.Config();
const runtimeAccess: RuntimeAccess =
  config.get('runtimeAccess', { allowedValues: ['direct', 'same-origin'] as const }) ?? 'direct';
const mfa: Mfa = config.get('mfa', { allowedValues: ['off', 'optional', 'on'] as const }) ?? 'optional';
const priceClass =
  config.get('priceClass', { allowedValues: ['PriceClass_100', 'PriceClass_200', 'PriceClass_All'] as const }) ??
  'PriceClass_100';

type Setting = [key: string, value: string | undefined];

/** A custom domain from two keys that come together: the name and its us-east-1 ACM certificate. */
function customDomain(
  [nameKey, name]: Setting,
  [certificateKey, certificateArn]: Setting,
): { name: string; certificateArn: string } | undefined {
  if (name === undefined && certificateArn === undefined) return undefined;
  if (name === undefined || certificateArn === undefined) {
    throw new Error(`set both '${nameKey}' and '${certificateKey}' (an ACM certificate in us-east-1), or neither`);
  }
  if (!/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(name)) {
    throw new Error(`config '${nameKey}' must be a lower-case DNS name, got '${name}'`);
  }
  if (!/^arn:aws[\w-]*:acm:us-east-1:\d{12}:certificate\/[\w-]+$/.test(certificateArn)) {
    throw new Error(`config '${certificateKey}' must be an ACM certificate ARN in us-east-1, got '${certificateArn}'`);
  }
  return { name, certificateArn };
}
const pageDomain = customDomain(
  ['domainName', config.get('domainName')],
  ['certificateArn', config.get('certificateArn')],
);
const customLoginDomain = customDomain(
  ['loginDomainName', config.get('loginDomainName')],
  ['loginCertificateArn', config.get('loginCertificateArn')],
);
const rateLimit =
  config.getNumber('rateLimitPer5Minutes') === undefined
    ? undefined
    : intSetting(config, 'rateLimitPer5Minutes', 0, RATE_LIMIT_RANGE);
const tags = defaultTags({ layer: 'web' });

const foundation = stackRef('foundationStack', projectNames.foundation);
const region = await requireFoundationRegion(foundation); // the runtime's region: the page calls it there
const { accountId } = await aws.getCallerIdentity();
const prefixSetting = config.get('loginDomainPrefix');
if (prefixSetting !== undefined && customLoginDomain !== undefined) {
  throw new Error("set either 'loginDomainPrefix' or 'loginDomainName', not both");
}
const loginDomainSetting = customLoginDomain ?? {
  prefix:
    prefixSetting === undefined
      ? loginDomainPrefix(pulumi.getStack(), accountId, region)
      : checkLoginDomainPrefix(prefixSetting),
};
const login = loginOrigin(loginDomainSetting, region);

const acl =
  rateLimit === undefined
    ? undefined
    : rateLimitedAcl(resourceName('page-acl'), {
        limit: rateLimit,
        aclName: resourceName('page'),
        tags,
      });
const bucket = new PageBucket(resourceName('page'), { tags });
const distribution = new PageDistribution(resourceName('page'), {
  bucket,
  region,
  runtimeAccess,
  loginOrigin: login,
  ...(pageDomain === undefined ? {} : { customDomain: pageDomain }),
  priceClass,
  ...(acl === undefined ? {} : { webAclArn: acl.arn }),
  tags,
});
// The page's root is its sign-in callback and where sign-out returns; the custom domain first.
const pageUrls = [
  ...(pageDomain === undefined ? [] : [`https://${pageDomain.name}/`]),
  pulumi.interpolate`https://${distribution.domainName}/`,
];
const signIn = new SignIn(resourceName('users'), {
  domain: loginDomainSetting,
  pageUrls,
  selfSignUp: config.getBoolean('selfSignUp') ?? false,
  mfa,
  deletionProtection: !(config.getBoolean('forceDestroy') ?? false),
  tags,
});

export { region, runtimeAccess };
export const pageUrl = pulumi.output(pageUrls[0]!);
export const pageBucketName = bucket.bucketName;
export const distributionId = distribution.distributionId;
export const distributionDomainName = distribution.domainName;
export const userPoolId = signIn.userPoolId;
export const userPoolClientId = signIn.clientId;
export const jwtDiscoveryUrl = signIn.userPoolId.apply((id) => cognitoDiscoveryUrl(region, id));
export const authority = signIn.userPoolId.apply((id) => cognitoIssuer(region, id));
export const loginDomain = login;
export const loginDomainAliasTarget = signIn.loginAliasTarget;
export const redirectUri = pageUrl;
export const postLogoutRedirectUri = pageUrl;
export const scope = PAGE_SCOPES.join(' ');
export const createUserCommand = pulumi.interpolate`aws cognito-idp admin-create-user --region ${region} --user-pool-id ${signIn.userPoolId} --username USER@EXAMPLE.COM --user-attributes Name=email,Value=USER@EXAMPLE.COM Name=email_verified,Value=true --desired-delivery-mediums EMAIL`;
