import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

// The floor for a large answer: node:http sending the bytes of BODY_FILE on every path, in one write.
const body = readFileSync(process.env.BODY_FILE!);
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
