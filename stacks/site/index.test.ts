// site under Pulumi mocks: every file of the page's manifest uploaded with its content type, the
// config.json of contract 6 built from the web and agent-runtime outputs, and one invalidation
// after the uploads. (The invalidation's dynamic provider is replaced: it cannot be serialized
// under jest; site/invalidation.test.ts runs the real one against a local CloudFront endpoint.)
import { beforeAll, expect, jest, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as pulumi from '@pulumi/pulumi';
import { agentRuntimeOutputs, foundationOutputs, siteOutputs, webOutputs } from '../shared/outputs.ts';
import { policyDocumentsOf } from '../testing/iam-reference.ts';
import { policyViolations } from '../testing/policy-check.ts';
import { account, fakeOutputs, organization, region, runProgram, type ProgramRun } from '../testing/mocks.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const manifest = JSON.parse(readFileSync(`${repoRoot}local/page/manifest.json`, 'utf8')).files as Record<
  string,
  string
>;
const runtimeArn = `arn:aws:bedrock-agentcore:${region}:${account}:runtime/kokoro_dev_agent-AbCdE12345`;
const pageUrl = 'https://d111kokoro0example.cloudfront.net/';
const authority = `https://cognito-idp.${region}.amazonaws.com/${region}_KoKoRo123`;
let run: ProgramRun;

beforeAll(async () => {
  jest.unstable_mockModule(fileURLToPath(new URL('./invalidation.ts', import.meta.url)), () => {
    class Invalidation extends pulumi.CustomResource {
      declare readonly invalidationId: pulumi.Output<string>;
      constructor(name: string, args: Record<string, unknown>, opts?: pulumi.CustomResourceOptions) {
        super('kokoro:site:Invalidation', name, { ...args, invalidationId: undefined }, opts);
      }
    }
    return { Invalidation };
  });
  run = await runProgram(new URL('./index.ts', import.meta.url), {
    project: 'kokoro-site',
    stackOutputs: {
      [`${organization}/kokoro-foundation/dev`]: fakeOutputs(foundationOutputs, { region }),
      [`${organization}/kokoro-web/dev`]: fakeOutputs(webOutputs, {
        pageUrl,
        pageBucketName: 'kokoro-dev-page-0a1b2c3',
        distributionId: 'E2KOKORO0EXAMPLE',
        runtimeAccess: 'direct',
        authority,
        userPoolClientId: '4kokoro0page0client0exampl',
        redirectUri: pageUrl,
        postLogoutRedirectUri: pageUrl,
        scope: 'openid email',
        loginDomain: 'https://kokoro-dev-0a1b2c3.auth.eu-west-1.amazoncognito.com',
      }),
      [`${organization}/kokoro-agent-runtime/dev`]: fakeOutputs(agentRuntimeOutputs, {
        agentRuntimeArn: runtimeArn,
        qualifier: 'live',
        inboundAuth: 'web',
      }),
    },
    moreState: (type) => (type === 'kokoro:site:Invalidation' ? { invalidationId: 'I2KOKOROEXAMPLE' } : {}),
  });
});

const config = {
  region,
  runtimeArn,
  qualifier: 'live',
  mode: 'direct',
  auth: {
    authority,
    clientId: '4kokoro0page0client0exampl',
    redirectUri: pageUrl,
    postLogoutRedirectUri: pageUrl,
    scope: 'openid email',
    logoutUrl: 'https://kokoro-dev-0a1b2c3.auth.eu-west-1.amazoncognito.com/logout',
  },
};

test("uploads exactly the manifest's files, each from its source with its content type", async () => {
  const objects = run.all('aws:s3/bucketObjectv2:BucketObjectv2').filter((o) => o.inputs.key !== 'config.json');
  expect(objects.map((o) => `/${o.inputs.key}`).sort()).toEqual(Object.keys(manifest).sort());
  for (const object of objects) {
    expect(object.inputs).toMatchObject({
      bucket: 'kokoro-dev-page-0a1b2c3',
      cacheControl: 'public, max-age=0, must-revalidate, s-maxage=86400',
    });
    // A FileAsset's path is a promise under mocks.
    expect(await object.inputs.source.path).toBe(`${repoRoot}${manifest[`/${object.inputs.key}`]}`);
  }
  const type = (key: string) => objects.find((o) => o.inputs.key === key)!.inputs.contentType;
  expect(type('index.html')).toBe('text/html; charset=utf-8');
  expect(type('audio-worklet.js')).toBe('text/javascript; charset=utf-8');
  expect(type('vendor/eventsource-parser/index.js')).toBe('text/javascript; charset=utf-8');
  expect(type('styles.css')).toBe('text/css; charset=utf-8');
});

test('writes config.json (contract 6) from the runtime and the sign-in settings', () => {
  const object = run.all('aws:s3/bucketObjectv2:BucketObjectv2').find((o) => o.inputs.key === 'config.json')!;
  expect(object.inputs.contentType).toBe('application/json; charset=utf-8');
  expect(JSON.parse(object.inputs.content)).toEqual(config);
});

test('invalidates the whole distribution once, after every upload, keyed by what it serves', () => {
  const invalidation = run.find('kokoro:site:Invalidation');
  expect(invalidation.inputs).toMatchObject({ distributionId: 'E2KOKORO0EXAMPLE', paths: ['/*'] });
  expect(invalidation.inputs.digest).toMatch(/^[0-9a-f]{64}$/);
  const uploads = run.all('aws:s3/bucketObjectv2:BucketObjectv2');
  expect(uploads).toHaveLength(Object.keys(manifest).length + 1);
  for (const upload of uploads) {
    expect(invalidation.dependencies).toContain(
      `urn:pulumi:dev::kokoro-site::aws:s3/bucketObjectv2:BucketObjectv2::${upload.name}`,
    );
  }
});

test('reads only outputs its producers export, and exports exactly its contract', () => {
  expect(run.reads[`${organization}/kokoro-foundation/dev`]).toEqual(['region']);
  expect(run.reads[`${organization}/kokoro-agent-runtime/dev`]!.sort()).toEqual([
    'agentRuntimeArn',
    'inboundAuth',
    'qualifier',
  ]);
  for (const name of run.reads[`${organization}/kokoro-web/dev`]!) expect(webOutputs).toContain(name);
  expect(Object.keys(run.outputs).sort()).toEqual([...siteOutputs].sort());
  expect(run.outputs).toEqual({
    pageUrl,
    pageConfig: config,
    uploadedPaths: [...Object.keys(manifest), '/config.json'],
    invalidationId: 'I2KOKOROEXAMPLE',
  });
});

test('passes every policy of the CrossGuard pack, and writes no IAM document', async () => {
  expect(await policyViolations(run.resources)).toEqual([]);
  expect(policyDocumentsOf(run.resources)).toEqual([]);
});
