import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { AppError } from '@partner/contracts';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** `Authorization: Bearer <CONSOLE_ADMIN_TOKEN>`, compared in constant time (over equal-length digests). */
export function requireAdminToken(adminToken: string): RequestHandler {
  const expected = digest(adminToken);
  return (req, _res, next) => {
    const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(req.headers.authorization ?? '');
    if (!match || !timingSafeEqual(digest(match[1]!), expected)) {
      return next(new AppError('unauthorized', 'Send Authorization: Bearer <CONSOLE_ADMIN_TOKEN>.'));
    }
    next();
  };
}
