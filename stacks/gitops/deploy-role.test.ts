// The deploy role's documents: the permissions pass the service authorization reference check and
// are still the statements of the snapshot taken before they were grouped by service, the web
// layers' document likewise and scoped by name or app tag, both within IAM's size limits, the
// trust admits only Pulumi Deployments of this org's kokoro-* projects, and the printer prints them.
import { describe, expect, test } from '@jest/globals';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { referenceProblems } from '../testing/iam-reference.ts';
import { POLICY_LIMITS, deployRolePolicy, deployRoleTrustPolicy, deployRoleWebPolicy } from './deploy-role.ts';

const scope = { partition: 'aws', region: 'eu-west-1', account: '111122223333' };

describe('deployRolePolicy', () => {
  test('every action exists, every condition key applies and every ARN fits (service authorization reference)', async () => {
    const doc = deployRolePolicy(scope);
    expect(doc.Statement.length).toBeGreaterThan(20);
    expect(
      await referenceProblems([{ resource: 'deploy-role', property: 'policy', statements: doc.Statement }]),
    ).toEqual([]);
  });

  test('grants nothing outside the kokoro names except what takes only *', () => {
    const starred = deployRolePolicy(scope)
      .Statement.filter((s) => s.Resource === '*')
      .map((s) => s.Sid);
    expect(starred).toEqual([
      'CreateKeys',
      'ListAliases',
      'LogDelivery',
      'TransactionSearch',
      'DescribeScaling',
      'CreateAgentRuntime',
      'ListAgentRuntimes',
      'Unscoped',
    ]);
    for (const s of deployRolePolicy(scope).Statement.filter((s) => s.Resource !== '*')) {
      for (const resource of [s.Resource ?? []].flat())
        expect(resource).toMatch(
          /kokoro|key\/\*|scalable-target\/\*|workload-identity-directory\/default|AWSServiceRoleForApplicationAutoScaling_SageMakerEndpoint/,
        );
    }
    expect(
      deployRolePolicy(scope).Statement.find((s) => s.Sid === 'PassRolesToTheirServices')!.Condition,
    ).toBeDefined();
  });

  test('the statements grouped by service are those of the one literal they were (its snapshot, sorted by Sid)', async () => {
    const before = JSON.parse(
      await readFile(new URL('./deploy-role-statements.snapshot.json', import.meta.url), 'utf8'),
    );
    const sorted = [...deployRolePolicy(scope).Statement].sort((a, b) => a.Sid!.localeCompare(b.Sid!));
    expect(sorted).toEqual(before);
    expect(before).toHaveLength(33);
  });

  test("lets the endpoint layer put its lexicon policy on the foundation's SageMaker role (stacks/endpoint/lexicon.ts)", () => {
    const role = 'arn:aws:iam::111122223333:role/kokoro-dev-sagemaker-role-0a1b2c3';
    const fits = (pattern: string) =>
      new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(role);
    const allowed = deployRolePolicy(scope)
      .Statement.filter((s) => s.Effect === 'Allow' && [s.Resource ?? []].flat().some(fits))
      .flatMap((s) => [s.Action].flat());
    expect(allowed).toEqual(expect.arrayContaining(['iam:PutRolePolicy', 'iam:GetRolePolicy', 'iam:DeleteRolePolicy']));
  });

  test('refuses a malformed account or region', () => {
    expect(() => deployRolePolicy({ ...scope, account: '123' })).toThrow("account must be 12 digits, got '123'");
    expect(() => deployRolePolicy({ ...scope, region: 'europe' })).toThrow("'europe' is not an AWS region");
  });
});

describe('deployRoleWebPolicy', () => {
  test('every action exists, every condition key applies and every ARN fits (service authorization reference)', async () => {
    const doc = deployRoleWebPolicy(scope);
    expect(doc.Statement.map((s) => s.Sid)).toEqual([
      'CreatePageDistribution',
      'PageDistribution',
      'CreatePageEdgeSettings',
      'OriginAccessControls',
      'ResponseHeadersPolicies',
      'CreateUserPools',
      'UserPools',
      'DescribeUserPoolDomains',
      'PageWebAcl',
      'PageFiles',
    ]);
    expect(
      await referenceProblems([{ resource: 'deploy-role', property: 'web-policy', statements: doc.Statement }]),
    ).toEqual([]);
  });

  test("scopes by the kokoro names or the app tag; '*' only where the action takes no resource", () => {
    const doc = deployRoleWebPolicy(scope);
    const byTag = (sid: string) => doc.Statement.find((s) => s.Sid === sid)!.Condition;
    expect(byTag('CreatePageDistribution')).toEqual({ StringEquals: { 'aws:RequestTag/app': 'kokoro' } });
    expect(byTag('CreateUserPools')).toEqual({ StringEquals: { 'aws:RequestTag/app': 'kokoro' } });
    expect(byTag('PageDistribution')).toEqual({ StringEquals: { 'aws:ResourceTag/app': 'kokoro' } });
    expect(byTag('UserPools')).toEqual({ StringEquals: { 'aws:ResourceTag/app': 'kokoro' } });
    expect(doc.Statement.find((s) => s.Sid === 'PageWebAcl')!.Resource).toBe(
      'arn:aws:wafv2:us-east-1:111122223333:global/webacl/kokoro-*/*',
    );
    expect(doc.Statement.find((s) => s.Sid === 'PageFiles')!.Resource).toBe('arn:aws:s3:::kokoro-*-page-*/*');
    const starred = doc.Statement.filter((s) => s.Resource === '*').map((s) => s.Sid);
    expect(starred).toEqual([
      'CreatePageDistribution',
      'CreatePageEdgeSettings',
      'CreateUserPools',
      'DescribeUserPoolDomains',
    ]);
    // Origin access controls and response headers policies take no tags: their types in this account.
    expect(doc.Statement.find((s) => s.Sid === 'OriginAccessControls')!.Resource).toBe(
      'arn:aws:cloudfront::111122223333:origin-access-control/*',
    );
    expect(doc.Statement.find((s) => s.Sid === 'ResponseHeadersPolicies')!.Resource).toBe(
      'arn:aws:cloudfront::111122223333:response-headers-policy/*',
    );
  });
});

test("each document fits IAM's limit for its kind (inline, managed), whitespace not counted", () => {
  const size = (doc: object) => JSON.stringify(doc).replace(/\s/g, '').length;
  expect(size(deployRolePolicy(scope))).toBeLessThanOrEqual(POLICY_LIMITS.inline);
  expect(size(deployRoleWebPolicy(scope))).toBeLessThanOrEqual(POLICY_LIMITS.managed);
  // A long partition and region make the longest ARNs.
  const long = { partition: 'aws-us-gov', region: 'ap-southeast-5', account: '111122223333' };
  expect(size(deployRolePolicy(long))).toBeLessThanOrEqual(POLICY_LIMITS.inline);
  expect(size(deployRoleWebPolicy(long))).toBeLessThanOrEqual(POLICY_LIMITS.managed);
});

test("the trust policy admits only the org's kokoro-* deployments through Pulumi's OIDC issuer", () => {
  expect(deployRoleTrustPolicy('111122223333', 'acme').Statement).toEqual([
    {
      Sid: 'PulumiDeployments',
      Effect: 'Allow',
      Principal: { Federated: 'arn:aws:iam::111122223333:oidc-provider/api.pulumi.com/oidc' },
      Action: ['sts:AssumeRoleWithWebIdentity'],
      Condition: {
        StringEquals: { 'api.pulumi.com/oidc:aud': 'acme' },
        StringLike: { 'api.pulumi.com/oidc:sub': 'pulumi:deploy:org:acme:project:kokoro-*:*' },
      },
    },
  ]);
  expect(() => deployRoleTrustPolicy('111122223333', 'ac me')).toThrow("organization 'ac me'");
});

test('prints each document as JSON from the command line', async () => {
  const script = fileURLToPath(new URL('./deploy-role.ts', import.meta.url));
  const run = (...args: string[]) => promisify(execFile)(process.execPath, [script, ...args]);
  expect(JSON.parse((await run('permissions', '111122223333', 'eu-west-1')).stdout)).toEqual(deployRolePolicy(scope));
  expect(JSON.parse((await run('web-permissions', '111122223333', 'eu-west-1')).stdout)).toEqual(
    deployRoleWebPolicy(scope),
  );
  expect(JSON.parse((await run('trust', '111122223333', 'acme')).stdout)).toEqual(
    deployRoleTrustPolicy('111122223333', 'acme'),
  );
  await expect(run('trust')).rejects.toMatchObject({ code: 2 });
});
