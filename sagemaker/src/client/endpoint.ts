// The SageMaker runtime URL of a region, as AWS's endpoint rules give it: region -> partition (the
// SDK's own partition table, `partition` of @aws-sdk/core, which is the `aws.partition` function
// the generated clients' rules call) -> host `runtime.sagemaker.{region}.{dnsSuffix}`.
//
// The bidirectional stream's rules (sagemaker-runtime-http2.json in aws/aws-sdk-js-v3, checked on
// 2026-12-01) put port 8443 on the partitions they name: aws, aws-cn, aws-us-gov, aws-iso,
// aws-iso-b, aws-iso-f, aws-eusc; any other partition (aws-iso-e, say) gets the generic rule, with
// no port. FIPS is `runtime-fips.sagemaker` in the named partitions and `runtime.sagemaker-fips`
// in the generic rule; dual-stack uses the partition's dualStackDnsSuffix. A custom endpoint is
// used as given (the rules refuse it together with FIPS or dual-stack).
import { partition } from '@aws-sdk/core/client';

/** Partitions whose bidirectional-stream endpoints the model lists explicitly (on port 8443). */
export const BIDI_PARTITIONS = ['aws', 'aws-cn', 'aws-us-gov', 'aws-iso', 'aws-iso-b', 'aws-iso-f', 'aws-eusc'];

/** A region name as the partitions' regionRegex patterns shape them: us-east-1, eusc-de-east-1, us-isob-east-1. */
const REGION = /^[a-z]{2,4}(-[a-z]+)+-\d+$/;

export interface EndpointVariant {
  /** The FIPS endpoint (AWS_USE_FIPS_ENDPOINT in the SDKs). */
  useFipsEndpoint?: boolean;
  /** The dual-stack (IPv6) endpoint (AWS_USE_DUALSTACK_ENDPOINT in the SDKs). */
  useDualstackEndpoint?: boolean;
}

/** `partition(region)`'s name and DNS suffixes; throws for a string that is not a region name. */
export function regionPartition(region: string) {
  if (!REGION.test(region))
    throw new TypeError(`AWS_REGION must be a region name like us-east-1, got ${JSON.stringify(region)}`);
  const { name, dnsSuffix, dualStackDnsSuffix, supportsFIPS, supportsDualStack } = partition(region);
  return { name, dnsSuffix, dualStackDnsSuffix, supportsFIPS, supportsDualStack };
}

/**
 * The runtime URL: `endpoint` if given (http:// = h2c for the local router), else the regional
 * one. `api` 'bidi' follows the HTTP/2 model's rules (port 8443); 'response-stream' is the classic
 * runtime API's host on 443 (its SDK client resolves its own endpoint; this only checks the region).
 */
export function runtimeEndpoint(
  endpoint: string | undefined,
  region: string,
  api: 'bidi' | 'response-stream' = 'response-stream',
  variant: EndpointVariant = {},
): URL {
  const p = regionPartition(region);
  if (endpoint !== undefined) {
    if (variant.useFipsEndpoint || variant.useDualstackEndpoint)
      throw new TypeError('a custom SageMaker runtime URL cannot be combined with the FIPS or dual-stack endpoint');
    const url = URL.canParse(endpoint) ? new URL(endpoint) : null;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      throw new TypeError(`SAGEMAKER_RUNTIME_URL must be http(s)://, got ${JSON.stringify(endpoint)}`);
    return url;
  }
  const fips = variant.useFipsEndpoint === true;
  const dualStack = variant.useDualstackEndpoint === true;
  if (api === 'response-stream') {
    if (fips || dualStack) throw new TypeError('FIPS and dual-stack endpoints are modelled here for the bidi API only');
    return new URL(`https://runtime.sagemaker.${region}.${p.dnsSuffix}`);
  }
  const suffix = dualStack ? p.dualStackDnsSuffix : p.dnsSuffix;
  if (BIDI_PARTITIONS.includes(p.name))
    return new URL(`https://runtime${fips ? '-fips' : ''}.sagemaker.${region}.${suffix}:8443`);
  if (fips && !p.supportsFIPS) throw new TypeError(`partition ${p.name} (region ${region}) has no FIPS endpoint`);
  if (dualStack && !p.supportsDualStack)
    throw new TypeError(`partition ${p.name} (region ${region}) has no dual-stack endpoint`);
  return new URL(`https://runtime.sagemaker${fips ? '-fips' : ''}.${region}.${suffix}`);
}
