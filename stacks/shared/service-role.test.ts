// ServiceRole constructed on its own under mocks: its two children, their parent, the trust policy
// from the provider's scope, and the aliases takesOver() gives them.
import { beforeAll, describe, expect, test } from '@jest/globals';
import * as pulumi from '@pulumi/pulumi';
import { mockEngine, resolve, type MockEngine } from '../testing/mocks.ts';
import { ServiceRole, takesOver } from './service-role.ts';

const policy = {
  Version: '2012-10-17' as const,
  Statement: [{ Sid: 'Read', Effect: 'Allow' as const, Action: ['s3:GetObject'], Resource: 'arn:aws:s3:::b/*' }],
};
const urn = (chain: string, name: string) => `urn:pulumi:dev::test::${chain}::${name}`;
let engine: MockEngine;
let plain: ServiceRole;

beforeAll(async () => {
  engine = await mockEngine({ project: 'test' });
  plain = new ServiceRole('plain', { service: 'sagemaker.amazonaws.com', policy, tags: { app: 'kokoro' } });
  new ServiceRole(
    'moved',
    { service: 'lambda.amazonaws.com', policy, maxSessionDuration: 7200 },
    takesOver({ role: urn('old:module:Thing$aws:iam/role:Role', 'old-role'), policy: 'urn:old-policy' }, [
      { type: 'old:module:Thing' },
    ]),
  );
  await resolve(plain.roleArn);
  await engine.settled();
});

describe('ServiceRole', () => {
  test('builds `<name>-role` and `<name>-policy` as its children, and outputs the role', async () => {
    const role = engine.find('aws:iam/role:Role', 'plain-role');
    const rolePolicy = engine.find('aws:iam/rolePolicy:RolePolicy', 'plain-policy');
    expect([role.parent, rolePolicy.parent]).toEqual([
      urn('kokoro:shared:ServiceRole', 'plain'),
      urn('kokoro:shared:ServiceRole', 'plain'),
    ]);
    expect(rolePolicy.inputs.role).toBe(role.state.name);
    expect(JSON.parse(rolePolicy.inputs.policy)).toEqual(policy);
    expect(role.inputs).toMatchObject({ maxSessionDuration: 3600, tags: { app: 'kokoro' } });
    expect(await resolve(plain.roleArn)).toBe('arn:aws:iam::123456789012:role/plain-role-0a1b2c3');
    expect(await resolve(plain.roleName)).toBe('plain-role-0a1b2c3');
  });

  test("trusts its service on behalf of the provider's account when no scope is given", () => {
    const trust = JSON.parse(engine.find('aws:iam/role:Role', 'plain-role').inputs.assumeRolePolicy);
    expect(trust.Statement).toEqual([
      {
        Sid: 'AssumeRole',
        Effect: 'Allow',
        Principal: { Service: 'sagemaker.amazonaws.com' },
        Action: ['sts:AssumeRole'],
        Condition: { StringEquals: { 'aws:SourceAccount': '123456789012' } },
      },
    ]);
  });

  test('takesOver aliases each child to the URN it had before and the component to its old type', () => {
    expect(engine.find('aws:iam/role:Role', 'moved-role').aliases).toEqual([
      urn('old:module:Thing$aws:iam/role:Role', 'old-role'),
    ]);
    expect(engine.find('aws:iam/rolePolicy:RolePolicy', 'moved-policy').aliases).toEqual(['urn:old-policy']);
    expect(engine.find('kokoro:shared:ServiceRole', 'moved').aliases).toEqual([
      JSON.stringify({ name: '', type: 'old:module:Thing', parent: '' }),
    ]);
    expect(engine.find('aws:iam/role:Role', 'plain-role').aliases).toEqual([]);
    expect(engine.find('aws:iam/role:Role', 'moved-role').inputs.maxSessionDuration).toBe(7200);
  });

  test('takesOver leaves resources of other types alone', () => {
    const [transform] = takesOver({ role: 'r', policy: 'p' }).transformations!;
    const args = { type: 'aws:s3/bucket:Bucket', name: 'b', props: {}, opts: {}, resource: {} as pulumi.Resource };
    expect(transform!(args)).toBeUndefined();
  });
});
