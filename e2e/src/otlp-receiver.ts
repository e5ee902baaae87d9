import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** One span as an OTLP receiver sees it, flattened with the service that sent it. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  /** OTLP's numbering: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, unknown>;
  links: { traceId: string; spanId: string }[];
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: OtlpAttribute[];
  links?: { traceId: string; spanId: string }[];
}
interface ExportTraceServiceRequest {
  resourceSpans: { resource: { attributes: OtlpAttribute[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
}

const valueOf = (value: OtlpValue): unknown => value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue;
const attributesOf = (list: OtlpAttribute[] = []) => Object.fromEntries(list.map(({ key, value }) => [key, valueOf(value)]));

/**
 * A collector's OTLP/HTTP endpoint on loopback (`POST /v1/traces`), for the services' real exporters:
 * JSON requests are decoded span by span; protobuf ones are kept as bytes (their strings, such as
 * span and service names, appear in them verbatim).
 */
export async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const protobufBodies: Buffer[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      let body = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      if (req.headers['content-type'] === 'application/x-protobuf') {
        protobufBodies.push(body);
        res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
        return;
      }
      const request = JSON.parse(body.toString('utf8')) as ExportTraceServiceRequest;
      for (const { resource, scopeSpans } of request.resourceSpans) {
        const service = String(attributesOf(resource.attributes)['service.name']);
        for (const scope of scopeSpans)
          for (const span of scope.spans)
            spans.push({
              service,
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId || null,
              name: span.name,
              kind: span.kind,
              attributes: attributesOf(span.attributes),
              links: (span.links ?? []).map(({ traceId, spanId }) => ({ traceId, spanId })),
            });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    protobufBodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
