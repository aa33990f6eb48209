import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../db/types.js';

type Db = Kysely<Database> | Transaction<Database>;

export const sessionsRepository = {
  /** One session of the account that has not ended (whatever its idle time). */
  findOpen(db: Db, accountId: string, sessionId: string) {
    return db
      .selectFrom('sessions')
      .select(['id', 'accountId', 'userAgent', 'ip'])
      .where('id', '=', sessionId)
      .where('accountId', '=', accountId)
      .where('endedAt', 'is', null)
      .executeTakeFirst();
  },

  /** The live account's name and username, or nothing. */
  liveAccount(db: Db, accountId: string) {
    return db
      .selectFrom('accounts')
      .select(['id', 'fullname', 'username'])
      .where('id', '=', accountId)
      .where('isDeleted', '=', 0)
      .executeTakeFirst();
  },
};
