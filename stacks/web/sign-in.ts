// Sign-in for the page: a Cognito user pool (email as the user name, admin-created users unless
// self sign-up is on), its managed login on a domain, and one public app client for the page:
// authorization code grant only (the page adds PKCE), no secret, callback and sign-out URLs the
// page's own. Its access tokens carry `client_id`, which the agent runtime's authorizer checks.
import { createHash } from 'node:crypto';
import * as aws from '@pulumi/aws';
import * as pulumi from '@pulumi/pulumi';

export type Mfa = 'off' | 'optional' | 'on';

/** What the page asks for: an ID token with the e-mail address, and an access token for the runtime. */
export const PAGE_SCOPES = ['openid', 'email'];

export interface SignInArgs {
  /** The managed login domain: a prefix under amazoncognito.com, or a custom domain with its certificate. */
  domain: { prefix: string } | { name: string; certificateArn: string };
  /** The page's URLs (callback = sign-out = the page's root), the first one the page uses. */
  pageUrls: pulumi.Input<string>[];
  selfSignUp: boolean;
  mfa: Mfa;
  /** ACTIVE keeps `pulumi destroy` from deleting the pool and its users. */
  deletionProtection: boolean;
  tags: pulumi.Input<Record<string, string>>;
}

/**
 * `kokoro-<stack>-<10 hex>`: a managed login prefix must be unique in its region among all AWS
 * accounts, so a digest of account, region and stack follows the name (it reveals none of them);
 * the stack part loses the words Cognito reserves.
 */
export function loginDomainPrefix(stack: string, account: string, region: string): string {
  const digest = createHash('sha256').update(`${account}/${region}/${stack}`).digest('hex').slice(0, 10);
  const name = stack
    .toLowerCase()
    .replace(/aws|amazon|cognito/g, '') // words Cognito reserves
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 20)
    .replace(/-+$/, '');
  return checkLoginDomainPrefix(`kokoro-${name || 'stack'}-${digest}`);
}

/** Cognito's rule for a prefix: lower-case letters, digits and hyphens, 1-63, no reserved words. */
export function checkLoginDomainPrefix(prefix: string): string {
  if (!/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(prefix) || /aws|amazon|cognito/.test(prefix)) {
    throw new Error(
      `config 'loginDomainPrefix' must be 1-63 lower-case letters, digits or hyphens without 'aws', 'amazon' or 'cognito', got '${prefix}'`,
    );
  }
  return prefix;
}

/** `https://<domain>`: where managed login, the token, revoke, userInfo and logout endpoints live. */
export function loginOrigin(domain: SignInArgs['domain'], region: string): string {
  return 'name' in domain ? `https://${domain.name}` : `https://${domain.prefix}.auth.${region}.amazoncognito.com`;
}

export class SignIn extends pulumi.ComponentResource {
  declare readonly userPoolId: pulumi.Output<string>;
  declare readonly userPoolArn: pulumi.Output<string>;
  declare readonly clientId: pulumi.Output<string>;
  /** For a custom domain: the CloudFront name its DNS alias must point to. */
  declare readonly loginAliasTarget: pulumi.Output<string>;

  constructor(name: string, args: SignInArgs, opts?: pulumi.ComponentResourceOptions) {
    super('kokoro:web:SignIn', name, {}, opts);
    const parent = { parent: this };
    const pageUrl = pulumi.output(args.pageUrls[0]!);
    const pool = new aws.cognito.UserPool(
      name,
      {
        userPoolTier: 'ESSENTIALS', // managed login (the Lite plan has only the classic hosted UI)
        usernameAttributes: ['email'],
        usernameConfiguration: { caseSensitive: false },
        autoVerifiedAttributes: ['email'],
        accountRecoverySetting: { recoveryMechanisms: [{ name: 'verified_email', priority: 1 }] },
        adminCreateUserConfig: {
          allowAdminCreateUserOnly: !args.selfSignUp,
          inviteMessageTemplate: {
            emailSubject: 'Your voice agent account',
            emailMessage: pulumi.interpolate`Sign in at ${pageUrl} as {username} with the temporary password {####}; you will choose your own.`,
          },
        },
        passwordPolicy: {
          minimumLength: 12,
          requireLowercase: true,
          requireUppercase: true,
          requireNumbers: true,
          requireSymbols: false,
          temporaryPasswordValidityDays: 7,
        },
        mfaConfiguration: args.mfa.toUpperCase(),
        ...(args.mfa === 'off' ? {} : { softwareTokenMfaConfiguration: { enabled: true } }),
        deletionProtection: args.deletionProtection ? 'ACTIVE' : 'INACTIVE',
        tags: args.tags,
      },
      parent,
    );
    const client = new aws.cognito.UserPoolClient(
      `${name}-page`,
      {
        userPoolId: pool.id,
        generateSecret: false, // a public client: the page cannot keep a secret
        allowedOauthFlowsUserPoolClient: true,
        allowedOauthFlows: ['code'],
        allowedOauthScopes: PAGE_SCOPES,
        supportedIdentityProviders: ['COGNITO'],
        callbackUrls: args.pageUrls,
        logoutUrls: args.pageUrls,
        // Only refreshing: sign-in goes through managed login, never a password sent by the page.
        explicitAuthFlows: ['ALLOW_REFRESH_TOKEN_AUTH'],
        preventUserExistenceErrors: 'ENABLED',
        enableTokenRevocation: true,
        accessTokenValidity: 60,
        idTokenValidity: 60,
        refreshTokenValidity: 30,
        tokenValidityUnits: { accessToken: 'minutes', idToken: 'minutes', refreshToken: 'days' },
      },
      parent,
    );
    const custom = 'name' in args.domain ? args.domain : undefined;
    const domain = new aws.cognito.UserPoolDomain(
      `${name}-domain`,
      {
        userPoolId: pool.id,
        domain: custom?.name ?? (args.domain as { prefix: string }).prefix,
        ...(custom === undefined ? {} : { certificateArn: custom.certificateArn }),
        managedLoginVersion: 2,
      },
      parent,
    );
    // Managed login shows an app client's pages once the client has a style: Cognito's own here.
    new aws.cognito.ManagedLoginBranding(
      `${name}-branding`,
      { userPoolId: pool.id, clientId: client.id, useCognitoProvidedValues: true },
      { parent: this, dependsOn: [domain] },
    );

    this.userPoolId = pool.id;
    this.userPoolArn = pool.arn;
    this.clientId = client.id;
    this.loginAliasTarget = domain.cloudfrontDistribution;
    this.registerOutputs({ userPoolId: this.userPoolId, clientId: this.clientId });
  }
}
