// An IAM role that one AWS service assumes, with one inline policy: the shape of both execution roles.
import * as aws from '@pulumi/aws';
import * as pulumi from '@pulumi/pulumi';
import type { PolicyDocument } from './policies.ts';

export interface ServiceRoleArgs {
  description: string;
  trustPolicy: pulumi.Input<PolicyDocument>;
  policy: pulumi.Input<PolicyDocument>;
  tags: pulumi.Input<Record<string, string>>;
}

export class ServiceRole extends pulumi.ComponentResource {
  declare readonly roleArn: pulumi.Output<string>;
  declare readonly roleName: pulumi.Output<string>;

  constructor(name: string, args: ServiceRoleArgs, opts?: pulumi.ComponentResourceOptions) {
    super('kokoro:foundation:ServiceRole', name, {}, opts);
    const role = new aws.iam.Role(
      name,
      {
        description: args.description,
        assumeRolePolicy: pulumi.output(args.trustPolicy).apply((doc) => JSON.stringify(doc)),
        maxSessionDuration: 3600,
        tags: args.tags,
      },
      { parent: this },
    );
    new aws.iam.RolePolicy(
      `${name}-policy`,
      {
        role: role.name,
        policy: pulumi.output(args.policy).apply((doc) => JSON.stringify(doc)),
      },
      { parent: this },
    );

    this.roleArn = role.arn;
    this.roleName = role.name;
    this.registerOutputs({ roleArn: this.roleArn, roleName: this.roleName });
  }
}
