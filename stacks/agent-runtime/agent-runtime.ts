// The voice agent on Bedrock AgentCore Runtime: the runtime (container, role, PUBLIC network, HTTP
// protocol, lifecycle, environment, optional JWT authorizer) and an endpoint pinned to its version.
import * as aws from '@pulumi/aws';
import * as pulumi from '@pulumi/pulumi';

export interface JwtAuthorizer {
  /** OIDC discovery URL, ending in /.well-known/openid-configuration. */
  discoveryUrl: string;
  allowedClients?: string[];
  allowedAudiences?: string[];
}

export interface AgentRuntimeArgs {
  runtimeName: string;
  endpointName: string;
  imageUri: pulumi.Input<string>;
  roleArn: pulumi.Input<string>;
  environment: pulumi.Input<Record<string, pulumi.Input<string>>>;
  idleSessionTimeoutSeconds: number;
  maxLifetimeSeconds: number;
  jwt?: JwtAuthorizer;
  tags: pulumi.Input<Record<string, string>>;
}

/** Discovery URL of a Cognito user pool: browsers sign in there and call the runtime with its JWTs. */
export function cognitoDiscoveryUrl(region: string, userPoolId: string): string {
  if (!/^[a-z]{2}(-[a-z]+)+-\d_[A-Za-z0-9]+$/.test(userPoolId))
    throw new Error(`'${userPoolId}' is not a Cognito user pool id`);
  return `https://cognito-idp.${region}.amazonaws.com/${userPoolId}/.well-known/openid-configuration`;
}

/** AgentCore's authorizer block; a JWT authorizer needs at least one allowed client or audience. */
export function authorizerConfiguration(jwt: JwtAuthorizer | undefined) {
  if (jwt === undefined) return undefined;
  if (!jwt.discoveryUrl.startsWith('https://') || !jwt.discoveryUrl.endsWith('/.well-known/openid-configuration')) {
    throw new Error(
      `JWT discovery URL '${jwt.discoveryUrl}' must be https and end in /.well-known/openid-configuration`,
    );
  }
  if ((jwt.allowedClients ?? []).length === 0 && (jwt.allowedAudiences ?? []).length === 0) {
    throw new Error('a JWT authorizer needs jwtAllowedClients or jwtAllowedAudiences');
  }
  return {
    customJwtAuthorizer: {
      discoveryUrl: jwt.discoveryUrl,
      ...(jwt.allowedClients?.length ? { allowedClients: jwt.allowedClients } : {}),
      ...(jwt.allowedAudiences?.length ? { allowedAudiences: jwt.allowedAudiences } : {}),
    },
  };
}

/** HTTPS URL that invokes the runtime (ARN URL-encoded), through the given endpoint qualifier. */
export function invokeUrl(region: string, runtimeArn: string, qualifier: string): string {
  return `https://bedrock-agentcore.${region}.amazonaws.com/runtimes/${encodeURIComponent(runtimeArn)}/invocations?qualifier=${encodeURIComponent(qualifier)}`;
}

export class AgentRuntime extends pulumi.ComponentResource {
  declare readonly runtimeArn: pulumi.Output<string>;
  declare readonly runtimeId: pulumi.Output<string>;
  declare readonly endpointArn: pulumi.Output<string>;

  constructor(name: string, args: AgentRuntimeArgs, opts?: pulumi.ComponentResourceOptions) {
    super('kokoro:agent:AgentRuntime', name, {}, opts);
    const authorizer = authorizerConfiguration(args.jwt);
    const runtime = new aws.bedrock.AgentcoreAgentRuntime(
      name,
      {
        agentRuntimeName: args.runtimeName,
        description: 'Kokoro voice agent: LLM sentences streamed into Kokoro TTS',
        agentRuntimeArtifact: { containerConfiguration: { containerUri: args.imageUri } },
        roleArn: args.roleArn,
        networkConfiguration: { networkMode: 'PUBLIC' },
        protocolConfiguration: { serverProtocol: 'HTTP' },
        lifecycleConfigurations: [
          { idleRuntimeSessionTimeout: args.idleSessionTimeoutSeconds, maxLifetime: args.maxLifetimeSeconds },
        ],
        environmentVariables: args.environment,
        ...(authorizer === undefined ? {} : { authorizerConfiguration: authorizer }),
        tags: args.tags,
      },
      { parent: this },
    );
    const endpoint = new aws.bedrock.AgentcoreAgentRuntimeEndpoint(
      `${name}-endpoint`,
      {
        name: args.endpointName,
        agentRuntimeId: runtime.agentRuntimeId,
        agentRuntimeVersion: runtime.agentRuntimeVersion,
        description: 'Follows the runtime version this stack last deployed',
        tags: args.tags,
      },
      { parent: this },
    );

    this.runtimeArn = runtime.agentRuntimeArn;
    this.runtimeId = runtime.agentRuntimeId;
    this.endpointArn = endpoint.agentRuntimeEndpointArn;
    this.registerOutputs({ runtimeArn: this.runtimeArn, runtimeId: this.runtimeId, endpointArn: this.endpointArn });
  }
}
