import { type Kysely, sql } from 'kysely';

// Frozen in time. The gateway's daily request counts (test keys' own day and their owner's test-traffic
// cap): kept in Postgres so that a Redis restart cannot hand anyone a fresh day. `day` is days since
// the epoch (UTC); rows older than a week are deleted by the gateway.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table gateway_daily_counts (
      bucket text not null,
      day integer not null,
      requests integer not null,
      primary key (bucket, day)
    )
  `.execute(db);
}
