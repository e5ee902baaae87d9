import { AppError } from '@partner/contracts';
import type { Db } from '@partner/db';
import type { Logger } from '@partner/http';
import { countWithinDailyCaps, deleteDailyCountsBefore } from './daily-counts.repository.js';
import { TEST_KEY_LIMITS } from '@partner/auth';
import { TEST_TRAFFIC_PER_OWNER_PER_DAY } from './rate-limiter.js';

const DAY_SECONDS = 86_400;
/** Days of counts kept (support questions about a past day); older rows are deleted. */
const KEPT_DAYS = 7;

/**
 * The daily caps of test traffic: a test key's 5,000 requests a UTC day, and its owner's 10,000 over
 * all its test keys. Counted in Postgres, one atomic statement per test request, so a Redis restart
 * or outage neither forgets nor loosens them (Redis keeps the per-minute windows). Live keys never
 * come here.
 */
export class TestTrafficCaps {
  private lastDay = -1;

  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
    private readonly logger: Logger,
  ) {}

  /** Counts a test key's request, or refuses it with 429 until midnight UTC. */
  async take(keyId: string, ownerId: string): Promise<void> {
    const sec = Math.floor(this.now().getTime() / 1000);
    const day = Math.floor(sec / DAY_SECONDS);
    this.forgetOldDays(day);
    const counted = await countWithinDailyCaps(
      this.db,
      day,
      { bucket: `key:${keyId}`, cap: TEST_KEY_LIMITS.perDay },
      { bucket: `test-owner:${ownerId}`, cap: TEST_TRAFFIC_PER_OWNER_PER_DAY },
    );
    if (counted.first !== null && counted.second !== null) return;
    const headers = { 'Retry-After': String((day + 1) * DAY_SECONDS - sec) };
    if (counted.first === null) {
      throw new AppError('rate_limited', "This test key has made today's test requests. The count resets at midnight UTC.", { headers });
    }
    throw new AppError('rate_limited', "This account's test keys have made today's test requests. The count resets at midnight UTC.", {
      headers,
    });
  }

  private forgetOldDays(day: number): void {
    if (day === this.lastDay) return;
    this.lastDay = day;
    // Once a day per replica, off the request's path; a failure is retried the next day.
    deleteDailyCountsBefore(this.db, day - KEPT_DAYS).catch((err: unknown) =>
      this.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'old daily counts not deleted'),
    );
  }
}
