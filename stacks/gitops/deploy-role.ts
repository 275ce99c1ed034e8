// The IAM role Pulumi Deployments assumes (by OIDC) to deploy the six layers: its trust policy and
// its permissions, as typed documents. The permissions are grouped by service, each group saying
// why the stacks need it (deploy-role-platform.ts, deploy-role-workloads.ts, deploy-role-web.ts),
// and scoped by the names the stacks give their resources (`kokoro-` prefixes, `kokoro_` for
// AgentCore runtimes) or their app tag, in one account and region. The web and site layers' groups
// are a second document, a managed policy: IAM caps a role's inline policies at 10,240 characters
// together, and a managed policy at 6,144. Print them:
//   node stacks/gitops/deploy-role.ts trust <account> <pulumi-org>
//   node stacks/gitops/deploy-role.ts permissions <account> <region> [partition]
//   node stacks/gitops/deploy-role.ts web-permissions <account> <region> [partition]
import { policyDocument, type AwsScope, type PolicyDocument, type Statement } from '../shared/iam.ts';
import { ecrStatements, iamStatements, kmsStatements, logsStatements, s3Statements } from './deploy-role-platform.ts';
import {
  agentCoreStatements,
  autoscalingStatements,
  cloudWatchStatements,
  lambdaStatements,
  sageMakerStatements,
  secretsManagerStatements,
  stepFunctionsStatements,
} from './deploy-role-workloads.ts';
import { cloudFrontStatements, cognitoStatements, pageObjectStatements, wafStatements } from './deploy-role-web.ts';

/** Trust for Pulumi Cloud's OIDC issuer: only deployments of this org's kokoro-* projects. */
export function deployRoleTrustPolicy(account: string, organization: string, partition = 'aws'): PolicyDocument {
  if (!/^\d{12}$/.test(account)) throw new Error(`account must be 12 digits, got '${account}'`);
  if (!/^[\w.-]+$/.test(organization)) throw new Error(`organization '${organization}' has unexpected characters`);
  return policyDocument([
    {
      Sid: 'PulumiDeployments',
      Effect: 'Allow',
      Principal: { Federated: `arn:${partition}:iam::${account}:oidc-provider/api.pulumi.com/oidc` },
      Action: ['sts:AssumeRoleWithWebIdentity'],
      Condition: {
        StringEquals: { 'api.pulumi.com/oidc:aud': organization },
        StringLike: { 'api.pulumi.com/oidc:sub': `pulumi:deploy:org:${organization}:project:kokoro-*:*` },
      },
    },
  ]);
}

/** The actions with no resource type: docker's registry login and the provider's caller lookup. */
const unscopedStatements = (): Statement[] => [
  {
    Sid: 'Unscoped',
    Effect: 'Allow',
    Action: ['ecr:GetAuthorizationToken', 'sts:GetCallerIdentity'],
    Resource: '*',
  },
];

/** IAM's limits on the documents, in characters without whitespace (IAM does not count it). */
export const POLICY_LIMITS = { inline: 10_240, managed: 6_144 } as const;

function checkScope(scope: AwsScope): void {
  if (!/^\d{12}$/.test(scope.account)) throw new Error(`account must be 12 digits, got '${scope.account}'`);
  if (!/^[a-z]{2}(-[a-z]+)+-\d$/.test(scope.region)) throw new Error(`'${scope.region}' is not an AWS region`);
}

/** What `pulumi up` of foundation, model-cache, endpoint and agent-runtime calls (the inline policy). */
export function deployRolePolicy(scope: AwsScope): PolicyDocument {
  checkScope(scope);
  return policyDocument(
    [
      iamStatements,
      s3Statements,
      kmsStatements,
      ecrStatements,
      logsStatements,
      lambdaStatements,
      stepFunctionsStatements,
      secretsManagerStatements,
      sageMakerStatements,
      autoscalingStatements,
      cloudWatchStatements,
      agentCoreStatements,
      unscopedStatements,
    ].flatMap((group) => group(scope)),
  );
}

/** What `pulumi up` of web and site calls (the managed policy attached beside the inline one). */
export function deployRoleWebPolicy(scope: AwsScope): PolicyDocument {
  checkScope(scope);
  return policyDocument(
    [cloudFrontStatements, cognitoStatements, wafStatements, pageObjectStatements].flatMap((group) => group(scope)),
  );
}

if (import.meta.main) {
  const [kind, account = '', third = '', partition = 'aws'] = process.argv.slice(2);
  if (!(kind === 'trust' || kind === 'permissions' || kind === 'web-permissions') || account === '' || third === '') {
    console.error(
      'usage: deploy-role.ts trust <account> <pulumi-org> | permissions <account> <region> [partition] | web-permissions <account> <region> [partition]',
    );
    process.exit(2);
  }
  const doc =
    kind === 'trust'
      ? deployRoleTrustPolicy(account, third, partition)
      : (kind === 'permissions' ? deployRolePolicy : deployRoleWebPolicy)({ partition, region: third, account });
  console.log(JSON.stringify(doc, null, 2));
}
