import { type Kysely, sql } from 'kysely';

// Frozen in time. How deliveries to an endpoint are signed: the spec's X-Service-Signature (every
// endpoint made before this, and the default) or Standard Webhooks (webhook-id, webhook-timestamp,
// webhook-signature). A constant default: existing rows take it without a table rewrite.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table webhook_endpoints add column signature_scheme text not null default 'x-service-signature'
      constraint webhook_endpoints_signature_scheme check (signature_scheme in ('x-service-signature', 'standard-webhooks'))
  `.execute(db);
}
