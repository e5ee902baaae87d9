import { createServer } from 'node:http';

// A floor for latency figures: node:http answering a fixed JSON body (BENCH_BODY) on every path, with
// nothing else in the way. What a benchmark measures through our services can only be slower.
const body = Buffer.from(process.env.BENCH_BODY ?? '{}');
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
