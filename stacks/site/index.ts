// site: the page itself, deployed after the agent runtime (its config.json names the runtime):
// every file of local/page/manifest.json and config.json uploaded to the web layer's bucket, then
// the distribution's cache invalidated when any of them changed.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as aws from '@pulumi/aws';
import * as pulumi from '@pulumi/pulumi';
import { projectNames, requireFoundationRegion, requireProducerOutput, stackRef } from '../shared/index.ts';
import { Invalidation } from './invalidation.ts';
import { pageConfig as checkedConfig, type PageConfig } from './page-config.ts';
import { CACHE_CONTROL, CONFIG_PATH, readPageFiles } from './page-files.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const files = readPageFiles(repoRoot, 'local/page/manifest.json'); // a bad manifest fails the preview here

const foundation = stackRef('foundationStack', projectNames.foundation);
const web = stackRef('webStack', projectNames.web);
const agentRuntime = stackRef('agentRuntimeStack', projectNames.agentRuntime);
const region = await requireFoundationRegion(foundation);
const inboundAuth = await requireProducerOutput(agentRuntime, 'inboundAuth', 'stacks/agent-runtime');
if (inboundAuth !== 'web') {
  throw new Error(
    `the agent-runtime stack takes inboundAuth '${inboundAuth}', so the page's sign-ins would be refused: ` +
      'set inboundAuth web there (pulumi config rm inboundAuth) and `pulumi up` it first',
  );
}

const bucket = web.requireOutput('pageBucketName');
const config: pulumi.Output<PageConfig> = pulumi
  .all([
    agentRuntime.requireOutput('agentRuntimeArn'),
    agentRuntime.requireOutput('qualifier'),
    web.requireOutput('runtimeAccess'),
    web.requireOutput('authority'),
    web.requireOutput('userPoolClientId'),
    web.requireOutput('redirectUri'),
    web.requireOutput('postLogoutRedirectUri'),
    web.requireOutput('scope'),
    web.requireOutput('loginDomain'),
  ])
  .apply(([runtimeArn, qualifier, mode, authority, clientId, redirectUri, postLogoutRedirectUri, scope, login]) =>
    checkedConfig({
      region,
      runtimeArn,
      qualifier,
      mode,
      auth: { authority, clientId, redirectUri, postLogoutRedirectUri, scope, logoutUrl: `${login}/logout` },
    }),
  );
const configJson = config.apply((c) => `${JSON.stringify(c, null, 2)}\n`);

const objects = files.map(
  (file) =>
    new aws.s3.BucketObjectv2(`page${file.urlPath}`, {
      bucket,
      key: file.key,
      source: new pulumi.asset.FileAsset(file.source),
      contentType: file.contentType,
      cacheControl: CACHE_CONTROL,
    }),
);
objects.push(
  new aws.s3.BucketObjectv2(`page${CONFIG_PATH}`, {
    bucket,
    key: CONFIG_PATH.slice(1),
    content: configJson,
    contentType: 'application/json; charset=utf-8',
    cacheControl: CACHE_CONTROL,
  }),
);

// What the distribution serves, as one hash: the invalidation runs again whenever it changes.
const digest = configJson.apply((json) => {
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file.urlPath}\0${file.contentType}\0`).update(readFileSync(file.source));
  return hash.update(`${CONFIG_PATH}\0${json}`).digest('hex');
});
const invalidation = new Invalidation(
  'page-invalidation',
  { distributionId: web.requireOutput('distributionId'), paths: ['/*'], digest },
  { dependsOn: objects },
);

export const pageUrl = web.requireOutput('pageUrl');
export const pageConfig = config;
export const uploadedPaths = [...files.map((f) => f.urlPath), CONFIG_PATH];
export const invalidationId = invalidation.invalidationId;
