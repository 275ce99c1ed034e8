// The page's config.json (the contract between the stacks and the page, docs/design/web-and-sign-in.md):
// where the runtime is, how the page reaches it, and how it signs in. Written next to the page so
// the same page works locally (the local web server writes its own) and deployed. The type is the
// contract's (protocol/src/page-config.ts); this module checks the values.
import type { DeployedPageConfig } from '@kokoro-speech/protocol/page-config';

export type PageConfig = DeployedPageConfig;

const https = (value: string) => /^https:\/\/[^\s/]+(\/\S*)?$/.test(value);

/** The config, checked: a value the page could not use fails the deployment, naming the output it came from. */
export function pageConfig(config: PageConfig): PageConfig {
  const bad = (what: string, value: unknown) => new Error(`config.json: ${what}, got ${JSON.stringify(value)}`);
  if (!/^[a-z]{2}(-[a-z]+)+-\d$/.test(config.region)) throw bad('region must be an AWS region', config.region);
  if (!/^arn:aws[\w-]*:bedrock-agentcore:[a-z0-9-]+:\d{12}:runtime\/[A-Za-z][\w-]*$/.test(config.runtimeArn)) {
    throw bad("runtimeArn (agent-runtime's agentRuntimeArn) must be an AgentCore runtime ARN", config.runtimeArn);
  }
  if (config.runtimeArn.split(':')[3] !== config.region) {
    throw bad(`runtimeArn must be in the page's region ${config.region}`, config.runtimeArn);
  }
  if (!/^[A-Za-z][A-Za-z0-9_]{0,47}$/.test(config.qualifier))
    throw bad('qualifier must be an endpoint name', config.qualifier);
  if (config.mode !== 'direct' && config.mode !== 'same-origin')
    throw bad("mode must be 'direct' or 'same-origin'", config.mode);
  if (config.auth !== null) {
    for (const key of ['authority', 'redirectUri', 'postLogoutRedirectUri', 'logoutUrl'] as const) {
      if (!https(config.auth[key])) throw bad(`auth.${key} must be an https URL`, config.auth[key]);
    }
    if (!/^[a-z0-9]{1,128}$/.test(config.auth.clientId))
      throw bad('auth.clientId must be a Cognito app client id', config.auth.clientId);
    if (!config.auth.scope.split(' ').includes('openid'))
      throw bad("auth.scope must include 'openid'", config.auth.scope);
  }
  return config;
}
