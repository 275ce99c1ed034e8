// An IAM role that one AWS service assumes, with one inline policy: the shape of every execution
// role in this project (SageMaker, AgentCore, the sync Lambdas, the sync state machine).
import * as aws from '@pulumi/aws';
import * as pulumi from '@pulumi/pulumi';
import { awsScope, serviceTrustPolicy, type AwsScope, type PolicyDocument, type TrustedService } from './iam.ts';

export interface ServiceRoleArgs {
  /** The service principal that assumes the role; the trust policy is serviceTrustPolicy(service). */
  service: pulumi.Input<TrustedService>;
  /** The role's one inline policy. */
  policy: pulumi.Input<PolicyDocument>;
  description?: pulumi.Input<string>;
  /** Partition, region and account the trust conditions name. Default: the provider's (awsScope). */
  scope?: pulumi.Input<AwsScope>;
  /** Longest session in seconds. Default 3600 (IAM's minimum). */
  maxSessionDuration?: pulumi.Input<number>;
  /** Tags of the role. Default: none. */
  tags?: pulumi.Input<Record<string, string>>;
}

export class ServiceRole extends pulumi.ComponentResource {
  declare readonly roleArn: pulumi.Output<string>;
  declare readonly roleName: pulumi.Output<string>;

  constructor(name: string, args: ServiceRoleArgs, opts?: pulumi.ComponentResourceOptions) {
    super('kokoro:shared:ServiceRole', name, {}, opts);
    const scope = args.scope ?? awsScope({ parent: this });
    const role = new aws.iam.Role(
      `${name}-role`,
      {
        description: args.description,
        assumeRolePolicy: pulumi
          .all([args.service, scope])
          .apply(([service, scope]) => JSON.stringify(serviceTrustPolicy(service, scope))),
        maxSessionDuration: args.maxSessionDuration ?? 3600,
        tags: args.tags,
      },
      { parent: this },
    );
    new aws.iam.RolePolicy(
      `${name}-policy`,
      { role: role.name, policy: pulumi.output(args.policy).apply((doc) => JSON.stringify(doc)) },
      { parent: this },
    );

    this.roleArn = role.arn;
    this.roleName = role.name;
    this.registerOutputs({ roleArn: this.roleArn, roleName: this.roleName });
  }
}

/**
 * Options for a ServiceRole that takes over a role and policy created before it existed (by hand,
 * or by an earlier component): their old URNs become aliases of its children, so `pulumi up` keeps
 * the existing role, its physical name and its policy instead of replacing them.
 */
export function takesOver(
  old: { role: pulumi.Input<string>; policy: pulumi.Input<string> },
  componentAliases: pulumi.Input<pulumi.URN | pulumi.Alias>[] = [],
): pulumi.ComponentResourceOptions {
  const aliasFor: Record<string, pulumi.Input<string>> = {
    'aws:iam/role:Role': old.role,
    'aws:iam/rolePolicy:RolePolicy': old.policy,
  };
  return {
    aliases: componentAliases,
    transformations: [
      ({ type, props, opts }) => {
        const alias = aliasFor[type];
        if (alias === undefined) return undefined;
        return { props, opts: pulumi.mergeOptions(opts, { aliases: [alias] }) };
      },
    ],
  };
}
