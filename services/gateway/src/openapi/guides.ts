import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import express, { type Router } from 'express';
import { Marked, type Tokens } from 'marked';
import { gfmHeadingId } from 'marked-gfm-heading-id';

/**
 * The integrator guides (docs/guides/*.md) and the two packages' READMEs, copied into dist/guides by
 * `pnpm build` (the image ships them with the gateway), served as pages beside the reference: what an
 * integrator reads must not live only in a repository they may not have.
 */
const GUIDES_DIR = fileURLToPath(new URL('../../dist/guides/', import.meta.url));

/** Links that leave docs/guides in the repository, and where they point once served. */
const SERVED_AS: Record<string, string> = {
  '../../packages/sdk/README.md': 'sdk.md',
  '../../packages/contracts/README.md': 'contracts.md',
  '../openapi.json': '/v1/openapi.json',
};

/** Text, tables and code: no script runs on a guide's page. */
const PAGE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const STYLE = `body{font:16px/1.55 system-ui,sans-serif;max-width:52rem;margin:0 auto;padding:1rem 1.25rem 4rem;color:#1f2328}
nav{display:flex;gap:1.25rem;padding:.5rem 0 1rem;border-bottom:1px solid #d0d7de;margin-bottom:1rem}
a{color:#0969da}code,pre{font:14px/1.45 ui-monospace,monospace;background:#f6f8fa;border-radius:6px}
code{padding:.1em .3em}pre{padding:1rem;overflow:auto}pre code{padding:0;background:none}
table{border-collapse:collapse;display:block;overflow:auto}th,td{border:1px solid #d0d7de;padding:.35rem .6rem;text-align:left}`;

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escapeHtml(title)} · Partner API</title>
    <link rel="icon" href="data:,">
    <style>${STYLE}</style>
  </head>
  <body>
    <nav><a href="/docs">API reference</a><a href="/docs/guides/">Guides</a><a href="/docs/guides/sdk.md">SDK</a></nav>
    <main>${body}</main>
  </body>
</html>
`;
}

/** Every guide, rendered once: name (`errors.md`) to page. */
async function renderGuides(): Promise<Map<string, string>> {
  const marked = new Marked(gfmHeadingId(), {
    walkTokens(token) {
      if (token.type !== 'link') return;
      const link = token as Tokens.Link;
      const [path = '', anchor] = link.href.split('#');
      const served = SERVED_AS[path];
      if (served) link.href = anchor ? `${served}#${anchor}` : served;
    },
  });
  const pages = new Map<string, string>();
  for (const name of (await readdir(GUIDES_DIR)).filter((file) => file.endsWith('.md'))) {
    const markdown = await readFile(`${GUIDES_DIR}${name}`, 'utf8');
    const title = /^# (.+)$/m.exec(markdown)?.[1] ?? name;
    pages.set(name, page(title, await marked.parse(markdown)));
  }
  return pages;
}

/** `GET /docs/guides/` (the index, docs/guides/README.md) and `GET /docs/guides/<name>.md`. */
export function guidePages(): Router {
  // Rendered on the first request: most replicas are never asked for a guide.
  let pages: Promise<Map<string, string>> | undefined;
  const router = express.Router();
  const serve =
    (name: string): express.RequestHandler =>
    async (_req, res, next) => {
      const html = (await (pages ??= renderGuides())).get(name);
      if (!html) return next();
      res.setHeader('Content-Security-Policy', PAGE_POLICY);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Cache-Control', 'public, max-age=300');
      res.type('html').send(html);
    };
  // Without the slash, the guides' relative links would resolve one level up.
  router.get('/docs/guides', (req, res, next) =>
    req.path.endsWith('/') ? serve('README.md')(req, res, next) : res.redirect(301, '/docs/guides/'),
  );
  router.get('/docs/guides/:name', (req, res, next) => serve(req.params.name)(req, res, next));
  return router;
}
