import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Written by the database (`now()` defaults) unless given; read back as Date. */
type CreatedAt = ColumnType<Date, Date | undefined, never>;
type Timestamp = ColumnType<Date, Date | undefined, Date>;
type NullableTimestamp = ColumnType<Date | null, Date | null | undefined, Date | null>;

export interface RestaurantsTable {
  id: string;
  name: string;
  slug: string;
  currency: string;
  public_menu_url: string | null;
  house_notes: string | null;
  subscription_status: Generated<'active' | 'lapsed'>;
  partner_api_addon: Generated<boolean>;
  concierge_addon: Generated<boolean>;
  concierge_enabled: Generated<boolean>;
  suspended: Generated<boolean>;
  monthly_quota: Generated<number>;
  overage_budget: Generated<number>;
  concierge_allowance: Generated<number>;
  /** The public menu page (and its publishable key) is on. */
  menu_page_enabled: Generated<boolean>;
  concierge_display_name: string | null;
  concierge_welcome_message: string | null;
  contact_email: ColumnType<string | null, string | null | undefined, string | null>;
  billing_anchor: Timestamp;
  created_at: CreatedAt;
  updated_at: Timestamp;
  /** Moved by triggers with every change to the published menu (migration 2026-12-02-menu-version). */
  menu_version: ColumnType<number, never, never>;
  /** The latest change to the menu's sections and published items; null before any. */
  menu_updated_at: ColumnType<Date | null, never, never>;
  /** Published live items, kept by the same triggers. */
  menu_item_count: ColumnType<number, never, never>;
}

export interface SectionsTable {
  id: string;
  restaurant_id: string;
  name: string;
  position: Generated<number>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface ItemsTable {
  id: string;
  restaurant_id: string;
  section_id: string | null;
  slug: string;
  name: string;
  description: string | null;
  price_cents: number;
  status: 'draft' | 'published' | 'archived';
  dietary_tags: Generated<string[]>;
  allergens: Generated<string[]>;
  model_status: Generated<'none' | 'processing' | 'ready' | 'failed'>;
  model_updated_at: NullableTimestamp;
  /** Storage keys of the ready model's files (content-addressed). */
  model_glb_key: string | null;
  model_usdz_key: string | null;
  model_thumbnail_key: string | null;
  model_failure_reason: string | null;
  created_at: CreatedAt;
  /** Written from the database clock inside the restaurant's sync lock (see queries/sync.ts). */
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface IntegratorOrgsTable {
  id: string;
  name: string;
  slug: string;
  suspended: Generated<boolean>;
  contact_email: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface ApiKeysTable {
  id: string;
  /** Hex SHA-256 of the full key; the plaintext is never stored. */
  key_hash: string;
  /** The public prefix (`svc_sk_live_`) and last four characters, to recognise a key in a list. */
  prefix: string;
  last4: string;
  type: 'secret' | 'publishable';
  environment: 'live' | 'test';
  name: string;
  scopes: string[];
  rate_limit_per_min: number;
  allowed_origins: string[];
  restaurant_id: string | null;
  integrator_org_id: string | null;
  expires_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  created_at: CreatedAt;
}

export interface ConnectLinksTable {
  /** Hex SHA-256 of the link token; the token itself is shown once. */
  token_hash: string;
  integrator_org_id: string;
  scopes: string[];
  expires_at: Date;
  used_at: NullableTimestamp;
  created_at: CreatedAt;
}

export interface GrantsTable {
  id: string;
  restaurant_id: string;
  integrator_org_id: string;
  scopes: string[];
  status: 'active' | 'revoked';
  created_at: CreatedAt;
  revoked_at: NullableTimestamp;
}

export interface PlatformSettingsTable {
  key: string;
  value: ColumnType<unknown, string, string>;
  updated_at: Timestamp;
}

export interface OutboxEventsTable {
  seq: Generated<number>;
  id: string;
  type: string;
  restaurant_id: string;
  /** Set for events addressed to one integrator (grant.*). */
  integrator_org_id: string | null;
  data: ColumnType<unknown, string, string>;
  /** Item events: whether the dish was published before or after the change. Null for other events. */
  touches_published_menu: ColumnType<boolean | null, boolean | null | undefined, never>;
  /** The `traceparent` of the traced request that wrote the event, for its deliveries' span links. */
  trace_context: ColumnType<string | null, string | null | undefined, never>;
  created_at: CreatedAt;
  fanned_out_at: NullableTimestamp;
}

export interface IdempotencyRecordsTable {
  api_key_id: string;
  idempotency_key: string;
  method: string;
  path: string;
  body_hash: string;
  state: 'in_progress' | 'completed';
  response_status: number | null;
  response_body: string | null;
  response_content_type: string | null;
  created_at: CreatedAt;
  locked_at: Timestamp;
  /** The current claim's own: only the execution holding it completes, renews or releases the key. */
  claim_token: Generated<string>;
}

export interface UsageCountersTable {
  restaurant_id: string;
  metric: 'api_requests' | 'concierge_messages' | 'embed_views';
  period_start: Date;
  used: Generated<number>;
}

/** The gateway's daily counts: `bucket` names what is counted, `day` is days since the epoch (UTC). */
export interface GatewayDailyCountsTable {
  bucket: string;
  day: number;
  requests: number;
}

export interface WebhookEndpointsTable {
  id: string;
  owner_kind: 'restaurant' | 'integrator';
  owner_id: string;
  url: string;
  enabled_events: string[];
  description: string | null;
  status: Generated<'active' | 'disabled'>;
  disabled_reason: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: NullableTimestamp;
  /** How deliveries are signed (contracts' ZWebhookSignatureScheme). */
  signature_scheme: Generated<'x-service-signature' | 'standard-webhooks'>;
  created_at: CreatedAt;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

/** A change made through console (its audit trail). */
export interface AuditEventsTable {
  id: string;
  occurred_at: CreatedAt;
  /** Who made it: `operator` (the admin token), an account's id (`acc_…`), or `anonymous` (asking for a sign-in link). */
  actor: string;
  /** The method and route template: `POST /console/restaurants/:id/keys`. */
  action: string;
  /** The route's `:id`, when it names one. */
  target_id: string | null;
  request_id: string;
  /** The answer's status (every recorded change succeeded: below 400). */
  status: number;
}

export type DeliveryStatus = 'pending' | 'held' | 'succeeded' | 'failed' | 'expired' | 'skipped';

export interface WebhookDeliveriesTable {
  id: string;
  event_id: string;
  event_type: string;
  endpoint_id: string;
  attempt: number;
  status: DeliveryStatus;
  response_status: number | null;
  duration_ms: number | null;
  error: string | null;
  created_at: CreatedAt;
  next_attempt_at: NullableTimestamp;
  claimed_until: NullableTimestamp;
}

export interface NotificationsTable {
  id: Generated<number>;
  owner_kind: string;
  owner_id: string;
  kind: string;
  message: string;
  created_at: CreatedAt;
}

export interface MenuUpdateBurstsTable {
  restaurant_id: string;
  first_change_at: Date;
  last_change_at: Date;
  changed_item_ids: string[];
  deleted_item_ids: string[];
}

/** A person who signs in to the dashboard (console's). */
export interface AccountsTable {
  id: string;
  /** Lower-cased. */
  email: string;
  name: string | null;
  /** scrypt, with its parameters; null until the person sets a password (e-mail links still work). */
  password_hash: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** What an account may manage: one restaurant or one integrator org, as its owner or a member. */
export interface MembershipsTable {
  account_id: string;
  restaurant_id: string | null;
  integrator_org_id: string | null;
  role: 'owner' | 'member';
  created_at: CreatedAt;
}

/** A signed-in browser: the SHA-256 of its cookie's value. */
export interface AccountSessionsTable {
  token_hash: Buffer;
  account_id: string;
  /** Sent back in X-CSRF-Token on every change the session makes. */
  csrf_token: string;
  created_at: CreatedAt;
  expires_at: Date;
  /** When its holder signed in by an e-mailed link (null: by password). */
  mailbox_proven_at: ColumnType<Date | null, Date | null | undefined, never>;
}

/** A one-time sign-in link sent by e-mail: the SHA-256 of its token. */
export interface SignInLinksTable {
  token_hash: Buffer;
  account_id: string;
  created_at: CreatedAt;
  expires_at: Date;
  used_at: NullableTimestamp;
}

export interface Database {
  restaurants: RestaurantsTable;
  sections: SectionsTable;
  items: ItemsTable;
  integrator_orgs: IntegratorOrgsTable;
  api_keys: ApiKeysTable;
  connect_links: ConnectLinksTable;
  grants: GrantsTable;
  platform_settings: PlatformSettingsTable;
  outbox_events: OutboxEventsTable;
  idempotency_records: IdempotencyRecordsTable;
  usage_counters: UsageCountersTable;
  gateway_daily_counts: GatewayDailyCountsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  notifications: NotificationsTable;
  menu_update_bursts: MenuUpdateBurstsTable;
  audit_events: AuditEventsTable;
  accounts: AccountsTable;
  memberships: MembershipsTable;
  account_sessions: AccountSessionsTable;
  sign_in_links: SignInLinksTable;
}

export type RestaurantRow = Selectable<RestaurantsTable>;
export type NewRestaurant = Insertable<RestaurantsTable>;
export type RestaurantUpdate = Updateable<RestaurantsTable>;
export type SectionRow = Selectable<SectionsTable>;
export type ItemRow = Selectable<ItemsTable>;
export type NewItem = Insertable<ItemsTable>;
export type ItemUpdate = Updateable<ItemsTable>;
export type IntegratorOrgRow = Selectable<IntegratorOrgsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type NewApiKey = Insertable<ApiKeysTable>;
export type GrantRow = Selectable<GrantsTable>;
export type ConnectLinkRow = Selectable<ConnectLinksTable>;
export type OutboxEventRow = Selectable<OutboxEventsTable>;
export type IdempotencyRecordRow = Selectable<IdempotencyRecordsTable>;
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;

export type AccountRow = Selectable<AccountsTable>;
