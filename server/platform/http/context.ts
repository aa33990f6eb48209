import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Database } from '../../db/types.js';
import type { EventBus } from '../writes/events.js';
import type { Storage } from '../storage/storage.js';
import type { FileReaders } from '../parsing/file-readers.js';
import type { Access, Role } from '../../../common/permissions.js';
import type { SessionUser } from '../../../common/schemas/auth.js';
import type { AccountRow } from '../identity/session-user.js';
import type { Actor } from '../writes/audit.js';
import type { CommandScope } from '../writes/command.js';

/**
 * The collections' adapters the hubs work through, listed by import in server/modules/collections.ts.
 * Each hub module adds its own field to this interface (declaration merging, as Fastify's
 * decorators do), so the platform names no module and the compiler checks what is handed over.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface CollectionAdapters {}

/** What every module is given: configuration, the database, the live-event bus and the log. */
export interface AppContext {
  config: Config;
  db: Kysely<Database>;
  events: EventBus;
  storage: Storage;
  /** The threads that parse uploaded files (platform/parsing/file-readers.ts). */
  files: FileReaders;
  /** The collections' adapters for the hubs (versions, translations, review), listed in server/modules/collections.ts. */
  collections: CollectionAdapters;
  log: FastifyBaseLogger;
  /** The command this context's writes join (writes/command.ts inCommand); unset, each write opens its own. */
  within?: CommandScope;
  /** Set by inCommand: the app's own context, which per-app runtimes are kept by and run on (appContext). */
  app?: AppContext;
}

/** The app's own context, also from a context in a command: its database is the app's, not a transaction. */
export const appContext = (ctx: AppContext): AppContext => ctx.app ?? ctx;

export interface AuthContext {
  sessionId: string;
  /** When this session's user last confirmed their password (and code), or null. */
  reauthAt: string | null;
  role: Role;
  user: SessionUser;
  account: AccountRow;
  actor: Actor;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    /**
     * Required on every route: 'public' (login, OpenAPI document, public content), 'signedIn',
     * or a permission of common/permissions.ts. Checked by the one policy hook before the body
     * is read; a route without one stops the server from starting.
     */
    access?: Access;
    /** A background request (periodic session check) that must not count as user activity. */
    passive?: boolean;
  }
}
