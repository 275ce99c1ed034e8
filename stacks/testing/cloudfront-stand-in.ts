// Test helper: a local CloudFront API endpoint (its REST-XML wire protocol, as the SDK speaks it)
// that answers CreateInvalidation for the distributions it knows and records each request. Only
// what the site layer's Invalidation calls is served.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface InvalidationSeen {
  distributionId: string;
  callerReference: string;
  paths: string[];
}

export interface CloudFrontStandIn {
  endpoint: string;
  invalidations: InvalidationSeen[];
  close(): Promise<void>;
}

const NS = 'http://cloudfront.amazonaws.com/doc/2020-05-31/';
const tag = (xml: string, name: string) =>
  [...xml.matchAll(new RegExp(`<${name}>([^<]*)</${name}>`, 'g'))].map((m) => m[1]!);

export async function startCloudFrontStandIn(distributionIds: string[]): Promise<CloudFrontStandIn> {
  const invalidations: InvalidationSeen[] = [];
  const xml = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) =>
    res
      .writeHead(status, { 'content-type': 'text/xml', ...headers })
      .end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
  const error = (res: ServerResponse, status: number, code: string, message: string) =>
    xml(
      res,
      status,
      `<ErrorResponse xmlns="${NS}"><Error><Type>Sender</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>stand-in</RequestId></ErrorResponse>`,
    );

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = Buffer.concat(await req.toArray()).toString();
    const match = /^\/2020-05-31\/distribution\/([^/]+)\/invalidation$/.exec(req.url ?? '');
    if (req.method !== 'POST' || match === null) return error(res, 400, 'InvalidRequest', `${req.method} ${req.url}`);
    const distributionId = decodeURIComponent(match[1]!);
    if (!distributionIds.includes(distributionId)) {
      return error(res, 404, 'NoSuchDistribution', 'The specified distribution does not exist.');
    }
    const seen = { distributionId, callerReference: tag(body, 'CallerReference')[0] ?? '', paths: tag(body, 'Path') };
    invalidations.push(seen);
    const id = `I${String(invalidations.length).padStart(13, '0')}`;
    const items = seen.paths.map((p) => `<Path>${p}</Path>`).join('');
    xml(
      res,
      201,
      `<Invalidation xmlns="${NS}"><Id>${id}</Id><Status>InProgress</Status><CreateTime>${new Date().toISOString()}</CreateTime>` +
        `<InvalidationBatch><Paths><Quantity>${seen.paths.length}</Quantity><Items>${items}</Items></Paths>` +
        `<CallerReference>${seen.callerReference}</CallerReference></InvalidationBatch></Invalidation>`,
      { location: `https://cloudfront.amazonaws.com/2020-05-31/distribution/${distributionId}/invalidation/${id}` },
    );
  };

  const server = createServer(
    (req, res) => void handle(req, res).catch((e) => error(res, 500, 'InternalError', String(e))),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    invalidations,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
