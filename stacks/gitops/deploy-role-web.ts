// The deploy role's statements for the web and site layers, one group per service: the page's
// CloudFront distribution and its edge settings, the Cognito user pool, the optional WAF web ACL,
// and the page's files. They form a second document (a managed policy beside the inline one): the
// first is near IAM's 10,240-character limit for a role's inline policies. deploy-role.ts puts
// the groups together. (The page bucket itself comes under the platform group's `kokoro-*` buckets.)
import { arn, type AwsScope, type Statement } from '../shared/iam.ts';

/** The tag every taggable resource of the stacks carries (shared/index.ts defaultTags). */
const appTag = { 'aws:ResourceTag/app': 'kokoro' };

/**
 * CloudFront: the distribution (its id is generated, so it is scoped by the app tag it is created
 * with), its invalidations, and the origin access control and response headers policy it uses,
 * which take no tags (scoped to their resource types in this account). CloudFront ARNs carry no region.
 */
export const cloudFrontStatements = (scope: AwsScope): Statement[] => [
  {
    Sid: 'CreatePageDistribution',
    Effect: 'Allow',
    Action: ['cloudfront:CreateDistribution'],
    Resource: '*',
    Condition: { StringEquals: { 'aws:RequestTag/app': 'kokoro' } },
  },
  {
    Sid: 'PageDistribution',
    Effect: 'Allow',
    Action: [
      'cloudfront:GetDistribution',
      'cloudfront:GetDistributionConfig',
      'cloudfront:UpdateDistribution',
      'cloudfront:DeleteDistribution',
      'cloudfront:TagResource',
      'cloudfront:UntagResource',
      'cloudfront:ListTagsForResource',
      'cloudfront:CreateInvalidation',
      'cloudfront:GetInvalidation',
    ],
    Resource: arn(scope, 'cloudfront', 'distribution/*', { region: '' }),
    Condition: { StringEquals: appTag },
  },
  {
    Sid: 'CreatePageEdgeSettings',
    Effect: 'Allow',
    Action: ['cloudfront:CreateOriginAccessControl', 'cloudfront:CreateResponseHeadersPolicy'],
    Resource: '*',
  },
  {
    Sid: 'OriginAccessControls',
    Effect: 'Allow',
    Action: [
      'cloudfront:GetOriginAccessControl',
      'cloudfront:GetOriginAccessControlConfig',
      'cloudfront:UpdateOriginAccessControl',
      'cloudfront:DeleteOriginAccessControl',
    ],
    Resource: arn(scope, 'cloudfront', 'origin-access-control/*', { region: '' }),
  },
  {
    Sid: 'ResponseHeadersPolicies',
    Effect: 'Allow',
    Action: [
      'cloudfront:GetResponseHeadersPolicy',
      'cloudfront:GetResponseHeadersPolicyConfig',
      'cloudfront:UpdateResponseHeadersPolicy',
      'cloudfront:DeleteResponseHeadersPolicy',
    ],
    Resource: arn(scope, 'cloudfront', 'response-headers-policy/*', { region: '' }),
  },
];

/**
 * Cognito: the user pool (a generated id, so created with the app tag and managed by it), its MFA
 * settings, the page's app client, its managed login domain and branding. Describing a domain
 * takes '*' only.
 */
export const cognitoStatements = (scope: AwsScope): Statement[] => [
  {
    Sid: 'CreateUserPools',
    Effect: 'Allow',
    Action: ['cognito-idp:CreateUserPool'],
    Resource: '*',
    Condition: { StringEquals: { 'aws:RequestTag/app': 'kokoro' } },
  },
  {
    Sid: 'UserPools',
    Effect: 'Allow',
    Action: [
      'cognito-idp:DescribeUserPool',
      'cognito-idp:UpdateUserPool',
      'cognito-idp:DeleteUserPool',
      'cognito-idp:GetUserPoolMfaConfig',
      'cognito-idp:SetUserPoolMfaConfig',
      'cognito-idp:TagResource',
      'cognito-idp:UntagResource',
      'cognito-idp:ListTagsForResource',
      'cognito-idp:CreateUserPoolClient',
      'cognito-idp:DescribeUserPoolClient',
      'cognito-idp:UpdateUserPoolClient',
      'cognito-idp:DeleteUserPoolClient',
      'cognito-idp:CreateUserPoolDomain',
      'cognito-idp:UpdateUserPoolDomain',
      'cognito-idp:DeleteUserPoolDomain',
      'cognito-idp:CreateManagedLoginBranding',
      'cognito-idp:DescribeManagedLoginBranding',
      'cognito-idp:DescribeManagedLoginBrandingByClient',
      'cognito-idp:UpdateManagedLoginBranding',
      'cognito-idp:DeleteManagedLoginBranding',
    ],
    Resource: arn(scope, 'cognito-idp', 'userpool/*'),
    Condition: { StringEquals: appTag },
  },
  { Sid: 'DescribeUserPoolDomains', Effect: 'Allow', Action: ['cognito-idp:DescribeUserPoolDomain'], Resource: '*' },
];

/** WAF: the optional rate-limiting web ACL, scoped by name; CloudFront's web ACLs live in us-east-1. */
export const wafStatements = (scope: AwsScope): Statement[] => [
  {
    Sid: 'PageWebAcl',
    Effect: 'Allow',
    Action: [
      'wafv2:CreateWebACL',
      'wafv2:GetWebACL',
      'wafv2:UpdateWebACL',
      'wafv2:DeleteWebACL',
      'wafv2:TagResource',
      'wafv2:UntagResource',
      'wafv2:ListTagsForResource',
    ],
    Resource: arn(scope, 'wafv2', 'global/webacl/kokoro-*/*', { region: 'us-east-1' }),
  },
];

/** S3: the site layer writes, reads back and removes the page's files, in the page buckets only. */
export const pageObjectStatements = (scope: AwsScope): Statement[] => [
  {
    Sid: 'PageFiles',
    Effect: 'Allow',
    Action: ['s3:PutObject', 's3:GetObject', 's3:GetObjectTagging', 's3:DeleteObject'],
    Resource: arn(scope, 's3', 'kokoro-*-page-*/*', { region: '', account: '' }),
  },
];
