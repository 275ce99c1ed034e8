// Cognito user pool URLs that more than one layer writes: the web layer exports them, the agent
// runtime's JWT authorizer and the page's sign-in (config.json) use them.

const USER_POOL_ID = /^[a-z]{2}(-[a-z]+)+-\d_[A-Za-z0-9]+$/;

/** The pool's issuer (the `iss` of its tokens, the OpenID Connect authority the page signs in with). */
export function cognitoIssuer(region: string, userPoolId: string): string {
  if (!USER_POOL_ID.test(userPoolId)) throw new Error(`'${userPoolId}' is not a Cognito user pool id`);
  return `https://cognito-idp.${region}.amazonaws.com/${userPoolId}`;
}

/** Discovery URL of a Cognito user pool: browsers sign in there and call the runtime with its JWTs. */
export function cognitoDiscoveryUrl(region: string, userPoolId: string): string {
  return `${cognitoIssuer(region, userPoolId)}/.well-known/openid-configuration`;
}
