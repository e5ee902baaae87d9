import express from 'express';

// The baseline: a bare express app answering the same JSON as GET /v1/partner/me, nothing else.
const body = JSON.parse(process.env.BENCH_BODY ?? '{}') as unknown;
const app = express();
app.disable('x-powered-by');
app.get('/v1/partner/me', (_req, res) => {
  res.json(body);
});
const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
