// What `npm start -- --auth` adds in front of the agent: the local OpenID Connect provider, the
// AgentCore stand-in that takes only its tokens, and the web server's config.json naming both, so
// that the page signs in and calls the runtime as it does when deployed.
import { createJwtAuthorizer } from '../agentcore-stand-in/jwt-authorizer.ts';
import { startJwtStandIn } from '../agentcore-stand-in/jwt-stand-in.ts';
import { checkPortFree } from '../stack/preflight.ts';
import { StartupError } from '../stack/startup-error.ts';
import type { WebServer } from '../web-server/web-server.ts';
import { PAGE_SCOPE, startLocalOidcProvider } from './oidc-provider.ts';
import { TEST_USERS } from './test-users.ts';

/** The runtime the local stand-in is (a well-formed ARN of no real account). */
export const LOCAL_RUNTIME_ARN = 'arn:aws:bedrock-agentcore:us-east-1:123456789012:runtime/kokoro_local-0000000000';
export const LOCAL_QUALIFIER = 'DEFAULT';

export type AuthMode = 'direct' | 'same-origin';

export interface LocalAuthOptions {
  web: WebServer;
  /** The agent server the stand-in passes accepted calls to. */
  agentUrl: URL;
  mode: AuthMode;
  tokenTtlS?: number;
  /** The provider's and the stand-in's ports (0: any free one). */
  providerPort: number;
  standInPort: number;
}

export interface LocalAuth {
  issuer: string;
  /** The AgentCore stand-in's endpoint. */
  endpoint: string;
  /** For the banner and the page's set-up list. */
  description: string;
  close(): Promise<void>;
}

export async function startLocalAuth(options: LocalAuthOptions): Promise<LocalAuth> {
  const redirectUris = options.web.origins.map((origin) => `${origin}/`);
  const provider = await startLocalOidcProvider({
    redirectUris,
    port: options.providerPort,
    ...(options.tokenTtlS === undefined ? {} : { tokenTtlS: options.tokenTtlS }),
  });
  try {
    const authorizer = await createJwtAuthorizer({
      discoveryUrl: provider.discoveryUrl,
      allowedClients: [provider.clientId],
    });
    const standIn = await startJwtStandIn({
      agentUrl: options.agentUrl,
      runtimeArn: LOCAL_RUNTIME_ARN,
      qualifiers: [LOCAL_QUALIFIER],
      authorizer,
      port: options.standInPort,
    });
    options.web.useAuth({
      mode: options.mode,
      region: LOCAL_RUNTIME_ARN.split(':')[3]!,
      runtimeArn: LOCAL_RUNTIME_ARN,
      qualifier: LOCAL_QUALIFIER,
      endpoint: standIn.endpoint,
      authority: provider.issuer,
      clientId: provider.clientId,
      scope: PAGE_SCOPE,
    });
    const users = TEST_USERS.map((u) => `${u.username}/${u.password}`).join(', ');
    return {
      issuer: provider.issuer,
      endpoint: standIn.endpoint,
      description: `local provider ${provider.issuer} (${users}); AgentCore stand-in ${standIn.endpoint}, ${options.mode}`,
      async close() {
        await standIn.close();
        await provider.close();
      },
    };
  } catch (err) {
    await provider.close();
    throw err;
  }
}

/** The provider at the page's port + 1, the stand-in at + 2 (any free ones with --port 0). */
export function authPorts(pagePort: number): { providerPort: number; standInPort: number } {
  return pagePort === 0
    ? { providerPort: 0, standInPort: 0 }
    : { providerPort: pagePort + 1, standInPort: pagePort + 2 };
}

/** Before anything slow: both ports are free, or start-up stops naming the way out. */
export async function checkAuthPortsFree(pagePort: number): Promise<void> {
  const { providerPort, standInPort } = authPorts(pagePort);
  for (const [port, what] of [
    [providerPort, 'the sign-in provider'],
    [standInPort, 'the AgentCore stand-in'],
  ] as const) {
    await checkPortFree('127.0.0.1', port).catch((error: unknown) => {
      throw new StartupError(
        `port ${port} on 127.0.0.1, where --auth puts ${what} (the page's port + ${port - pagePort}), is not free: pick another page port, e.g. npm start -- --auth --port ${pagePort + 10}`,
        { cause: error },
      );
    });
  }
}
