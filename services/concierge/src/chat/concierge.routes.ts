import type { Request, Response, Router } from 'express';
import { VISITOR_HEADER } from '@partner/auth';
import { classifyDependencyFault, keyPrincipal, markNotReplayable, parseWith, whenAnswerClosed } from '@partner/http';
import { ZChatRequest } from '@partner/contracts';
import type { ConciergeDeps } from '../deps.js';
import { admitVisitor, bootstrap, prepareTurn, runTurn } from './concierge.service.js';
import { SseStream } from './sse.js';

export function registerConciergeRoutes(router: Router, deps: ConciergeDeps): void {
  const chat = async (req: Request<{ id: string }>, res: Response) => {
    // A client that goes away cancels the model call, also one gone before the stream opens (even
    // before this handler: while its request waited for its Idempotency-Key).
    const abort = new AbortController();
    whenAnswerClosed(res, () => abort.abort());
    // Gone before the turn began: nothing ran or was spent, so a retry with its Idempotency-Key runs it afresh.
    const gone = () => {
      if (!abort.signal.aborted) return false;
      markNotReplayable(res);
      res.end();
      return true;
    };
    const principal = keyPrincipal(req.principal);
    const body = parseWith(ZChatRequest, req.body, 'body');
    const grounds = await prepareTurn(deps, principal, req.params.id);
    if (gone()) return;
    // The gateway names the visitor on publishable keys' requests; a secret key's server has none.
    const visitor = principal.keyType === 'publishable' ? req.get(VISITOR_HEADER) : undefined;
    await admitVisitor(deps, { principal, visitor }, grounds.restaurant);
    if (gone()) return;
    const sse = new SseStream(res, deps.heartbeatMs);
    try {
      await runTurn(deps, principal, grounds, body, sse, abort.signal);
    } catch (err) {
      // Once the stream is open a failure is its last event: a dependency's fault (Postgres metering
      // or building the menu's index) is one to retry, anything else ours.
      if (classifyDependencyFault(err)) {
        req.log.warn({ err }, 'concierge turn stopped by a dependency fault');
        sse.send('error', { code: 'service_unavailable', message: 'A service this turn needs is briefly unavailable. Retry shortly.' });
      } else {
        req.log.error({ err }, 'concierge turn failed');
        sse.send('error', { code: 'internal_error', message: 'Something went wrong on our side.' });
      }
    } finally {
      sse.end();
    }
  };
  router.post('/v1/partner/restaurants/:id/concierge/chat', chat);
  router.post('/v1/partner/embed/restaurants/:id/concierge/chat', chat);
  router.get('/v1/partner/embed/restaurants/:id/concierge', async (req, res) => {
    const data = await bootstrap(deps, keyPrincipal(req.principal), req.params.id);
    // Only the answer is kept a minute: a failure (a 503 while the database is away) is not.
    res.setHeader('Cache-Control', 'private, max-age=60');
    res.json({ data });
  });
}
