import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Database } from '../db/types.js';
import type { EventBus } from './events.js';
import type { Storage } from './storage.js';
import type { Permission, PermissionFlag, Role } from '../../common/permissions.js';
import type { SessionUser } from '../../common/schemas/auth.js';
import type { AccountRow } from '../modules/accounts/repository.js';
import type { Actor } from './audit.js';

/** What every module is given: configuration, the database, the live-event bus and the log. */
export interface AppContext {
  config: Config;
  db: Kysely<Database>;
  events: EventBus;
  storage: Storage;
  log: FastifyBaseLogger;
}

export interface AuthContext {
  sessionId: string;
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
    /** No session needed (login, OpenAPI document, public content). */
    public?: boolean;
    /** Checked by the one policy hook before the handler runs. */
    permission?: Permission | PermissionFlag;
    /** A background request (periodic session check) that must not count as user activity. */
    passive?: boolean;
  }
}
