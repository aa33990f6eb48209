import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { nowIso } from '../support/clock.js';

/**
 * HMAC-SHA256 signatures with a secret kept in the database (signing_keys), one per purpose.
 * The first instance to need a purpose's secret makes it; an instance that loses that race
 * reads the winner's, so every instance signs and checks with the same secret.
 */
export class Signer {
  private secret: Promise<Buffer> | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly purpose: string,
  ) {}

  private key(): Promise<Buffer> {
    this.secret ??= this.load().catch((err: unknown) => {
      this.secret = null;
      throw err;
    });
    return this.secret;
  }

  private async load(): Promise<Buffer> {
    await this.db
      .insertInto('signing_keys')
      .values({ name: this.purpose, secret: crypto.randomBytes(32).toString('base64url'), createdAt: nowIso() })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const row = await this.db.selectFrom('signing_keys').select('secret').where('name', '=', this.purpose).executeTakeFirstOrThrow();
    return Buffer.from(row.secret, 'base64url');
  }

  /** The signature of `value`, base64url. */
  async sign(value: string): Promise<string> {
    return crypto
      .createHmac('sha256', await this.key())
      .update(`${this.purpose}\n${value}`)
      .digest('base64url');
  }

  /** True when `signature` is `value`'s, compared in constant time. */
  async verify(value: string, signature: string): Promise<boolean> {
    const expected = Buffer.from(await this.sign(value));
    const given = Buffer.from(signature);
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  }
}
