import type { IncomingMessage } from 'node:http';
import { hasScope, isOriginAllowed } from '@partner/auth';
import { AppError } from '@partner/contracts';
import type { AuthenticatedKey } from '../auth/key-cache.js';
import type { Access } from './route-table.js';

/** Key type, scope and (publishable keys) origin rules of spec 5 for one route. */
export function authorize(access: Access, key: AuthenticatedKey, req: IncomingMessage): void {
  if (access.kind === 'public') return;
  const { type, scopes, allowed_origins } = key.key;
  if (access.kind === 'secret') {
    if (type !== 'secret') {
      throw new AppError('forbidden_key_type', 'Publishable keys only work with the embed components. Use a secret key on your server.');
    }
    if (access.scope && !hasScope(scopes, access.scope)) throw missingScope(access.scope);
    return;
  }
  if (type === 'secret') {
    if (!hasScope(scopes, access.secretScope)) throw missingScope(access.secretScope);
    return;
  }
  const origin = requestOrigin(req);
  if (!isOriginAllowed(origin, allowed_origins)) {
    throw new AppError(
      'origin_not_allowed',
      origin && origin !== 'null'
        ? `The origin ${origin} is not on this publishable key's allow-list. Add it in your dashboard.`
        : "Publishable keys only work from a web page whose origin is on the key's allow-list.",
    );
  }
}

const missingScope = (scope: string) => new AppError('forbidden_scope', `This key lacks the ${scope} scope this route needs.`);

/**
 * The page's origin: the Origin header, or for a same-origin GET (browsers send no Origin there) the
 * origin of the Referer. Like every origin check this binds browsers, not scripted clients.
 */
function requestOrigin(req: IncomingMessage): string | undefined {
  if (req.headers.origin) return req.headers.origin;
  const referer = req.headers.referer;
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}
