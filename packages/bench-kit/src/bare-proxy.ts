import { createServer } from 'node:http';
import { Pool } from 'undici';

// A baseline for the gateway hop: the least a proxy can do. Every request goes to UPSTREAM with the
// fixed headers of PROXY_HEADERS (a JSON object) and the answer comes back in one write; no key check,
// no rate limit, no routing. What the gateway adds on top of this is the price of its rules.
const upstream = new Pool(process.env.UPSTREAM!, { connections: 128 });
const extraHeaders = JSON.parse(process.env.PROXY_HEADERS ?? '{}') as Record<string, string>;

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  upstream.dispatch(
    { method: 'GET', path: req.url!, headers: extraHeaders },
    {
      onRequestStart: () => {},
      onResponseStart: (_controller, statusCode, headers) => {
        res.statusCode = statusCode;
        for (const name in headers) if (name !== 'connection' && name !== 'keep-alive') res.setHeader(name, headers[name]!);
      },
      onResponseData: (_controller, chunk) => {
        chunks.push(chunk);
      },
      onResponseEnd: () => {
        res.end(Buffer.concat(chunks));
      },
      onResponseError: () => {
        res.statusCode = 502;
        res.end();
      },
    },
  );
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
