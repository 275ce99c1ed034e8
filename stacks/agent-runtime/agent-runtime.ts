// The voice agent on Bedrock AgentCore Runtime: the runtime (container, role, PUBLIC network, HTTP
// protocol, lifecycle, environment, optional JWT authorizer with the Authorization header passed
// through) and an endpoint pinned to its version.
import * as aws from '@pulumi/aws';
import * as pulumi from '@pulumi/pulumi';

/** How callers authenticate: SigV4, the web layer's user pool, or the issuer the jwt keys name. */
export type InboundAuth = 'iam' | 'web' | 'jwt';

/**
 * The request headers AgentCore passes to the container beside its own: with a JWT authorizer the
 * agent reads the caller from the verified bearer token. Never with SigV4: there Authorization is
 * the request's signature, which the agent would refuse as a malformed bearer token.
 */
export const JWT_HEADER_ALLOWLIST = ['Authorization'];

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

export { cognitoDiscoveryUrl } from '../shared/cognito.ts';

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
        ...(authorizer === undefined
          ? {}
          : {
              authorizerConfiguration: authorizer,
              requestHeaderConfiguration: { requestHeaderAllowlists: JWT_HEADER_ALLOWLIST },
            }),
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
