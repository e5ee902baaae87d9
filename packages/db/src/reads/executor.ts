import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../schema.js';

/** Repository functions run on the pool or inside a caller's transaction alike. */
export type Executor = Kysely<Database> | Transaction<Database>;
