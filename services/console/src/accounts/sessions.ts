import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { AccountRow, Db } from '@partner/db';
import { deleteSession, findLiveSession, insertSession } from './sessions.repository.js';

export const tokenDigest = (token: string): Buffer => createHash('sha256').update(token).digest();

/** The same or not, in constant time (over digests, so lengths leak nothing either). */
export const sameSecret = (given: string, expected: string): boolean => timingSafeEqual(tokenDigest(given), tokenDigest(expected));

export interface SessionOptions {
  /** The dashboard's origin (CONSOLE_PUBLIC_URL): its cookie is `Secure` whenever that is https. */
  publicUrl: string;
  ttlMs: number;
}

/**
 * Dashboard sessions: a random token in an `HttpOnly`, `SameSite=Strict` cookie (`Secure`, and named
 * `__Host-…`, behind https), stored only as its SHA-256 in Postgres with the session's CSRF token.
 */
export class Sessions {
  private readonly secure: boolean;
  private readonly cookieName: string;

  constructor(
    private readonly db: Db,
    private readonly options: SessionOptions,
  ) {
    this.secure = new URL(options.publicUrl).protocol === 'https:';
    this.cookieName = this.secure ? '__Host-console_session' : 'console_session';
  }

  /**
   * Signs the account in on this browser: a new session, its cookie set on `res`. `byLink`: the holder
   * proved they read the account's mailbox (an e-mailed link), just now.
   */
  async start(res: Response, account: AccountRow, now: Date, byLink: boolean) {
    const token = randomBytes(32).toString('base64url');
    const session = {
      tokenHash: tokenDigest(token),
      csrfToken: randomBytes(24).toString('base64url'),
      expiresAt: new Date(now.getTime() + this.options.ttlMs),
      mailboxProvenAt: byLink ? now : null,
    };
    await insertSession(this.db, { ...session, accountId: account.id });
    res.append('Set-Cookie', this.cookie(token, session.expiresAt));
    return session;
  }

  /** The cookie's live session and its account, if the request carries one. */
  async find(req: Request, now: Date) {
    const token = this.tokenOf(req);
    if (!token) return undefined;
    const tokenHash = tokenDigest(token);
    const found = await findLiveSession(this.db, tokenHash, now);
    return found ? { ...found, tokenHash } : undefined;
  }

  hasCookie(req: Request): boolean {
    return this.tokenOf(req) !== undefined;
  }

  async end(res: Response, tokenHash: Buffer): Promise<void> {
    await deleteSession(this.db, tokenHash);
    this.clear(res);
  }

  clear(res: Response): void {
    res.append('Set-Cookie', this.cookie('', new Date(0)));
  }

  private tokenOf(req: Request): string | undefined {
    const header = req.headers.cookie;
    return header ? parseCookie(header)[this.cookieName] || undefined : undefined;
  }

  private cookie(value: string, expires: Date): string {
    return stringifySetCookie({
      name: this.cookieName,
      value,
      httpOnly: true,
      secure: this.secure,
      sameSite: 'strict',
      path: '/',
      expires,
    });
  }
}
