import { type Kysely, sql } from 'kysely';

// Frozen in time. The dashboard's people (console's tables): accounts, what each may manage
// (memberships of restaurants and integrator orgs), their signed-in sessions and one-time sign-in links.
// Secrets are stored as SHA-256 digests of the values handed out; passwords as scrypt hashes.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table accounts (
      id text primary key,
      email text not null unique check (email = lower(email)),
      name text,
      password_hash text,
      created_at timestamptz(3) not null default now(),
      updated_at timestamptz(3) not null default now()
    )
  `.execute(db);
  await sql`
    create table memberships (
      account_id text not null references accounts (id) on delete cascade,
      restaurant_id text references restaurants (id),
      integrator_org_id text references integrator_orgs (id),
      role text not null check (role in ('owner', 'member')),
      created_at timestamptz(3) not null default now(),
      check ((restaurant_id is null) <> (integrator_org_id is null))
    )
  `.execute(db);
  await sql`create unique index memberships_restaurant on memberships (restaurant_id, account_id) where restaurant_id is not null`.execute(
    db,
  );
  await sql`create unique index memberships_integrator on memberships (integrator_org_id, account_id) where integrator_org_id is not null`.execute(
    db,
  );
  await sql`create index memberships_account on memberships (account_id)`.execute(db);
  await sql`
    create table account_sessions (
      token_hash bytea primary key,
      account_id text not null references accounts (id) on delete cascade,
      csrf_token text not null,
      created_at timestamptz(3) not null default now(),
      expires_at timestamptz(3) not null
    )
  `.execute(db);
  await sql`create index account_sessions_account on account_sessions (account_id)`.execute(db);
  await sql`create index account_sessions_expiry on account_sessions (expires_at)`.execute(db);
  await sql`
    create table sign_in_links (
      token_hash bytea primary key,
      account_id text not null references accounts (id) on delete cascade,
      created_at timestamptz(3) not null default now(),
      expires_at timestamptz(3) not null,
      used_at timestamptz(3)
    )
  `.execute(db);
  await sql`create index sign_in_links_expiry on sign_in_links (expires_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table sign_in_links, account_sessions, memberships, accounts`.execute(db);
}
