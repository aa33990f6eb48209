import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { ReviewAction, ReviewCollection } from '../../../common/review.js';
import type { Transaction } from 'kysely';
import type { Role } from '../../../common/permissions.js';
import type { Database } from '../../db/types.js';
import type { AppContext, AuthContext } from '../http/context.js';
import type { Actor } from './audit.js';
import type { Command } from './command.js';

/**
 * A route whose save may have to wait for review: the collection it saves (or how to read it
 * from the route's parameters) and what the save does.
 */
export interface ReviewRoute {
  collection: ReviewCollection | ((params: Record<string, string>) => string);
  action: ReviewAction;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The save this route makes, when its collection's changes need review (server/modules/publishing/review). */
    review?: ReviewRoute;
  }
  interface FastifyInstance {
    /** Filled by the review module (one holder shared by every plugin): takes a reviewed route's request instead of its handler. */
    reviewGate: { current: ReviewGate | null };
  }
}

/** A record's state as versions keeps it: fields, and a pest's or disease's photo ids in order. */
export interface ReviewSnapshot {
  fields: Record<string, unknown>;
  photos?: string[];
}

/** A save as the collection's adapter proposes it: nothing is written. */
export interface ReviewProposal {
  recordId: string | null;
  recordName: string;
  /** The published edit version the save was made on (null for a new record). */
  baseVersion: number | null;
  /** What apply is given back: the route's input, as the adapter needs it. */
  input: unknown;
  /** Staged photos the change names (kept, and shown to reviewers). */
  photoIds?: string[];
  /** What the queue shows of a large proposal (an import's counts). */
  summary?: Record<string, number>;
  /** Other records the change would write (an import's updates): none may have an open change. */
  touches?: string[];
}

/** A stored pending change as adapters are given it. */
export interface ReviewChange {
  id: string;
  collection: ReviewCollection;
  action: ReviewAction;
  recordId: string | null;
  baseVersion: number | null;
  input: unknown;
}

/** One kind of save of one collection, as its module supplies it. */
export interface ReviewedAction {
  /**
   * The save's checks on the request (its body already validated by the route's schema); writes
   * nothing. null: this save needs no review (it reaches no farmer, or changes nothing), and the
   * route's handler runs. `own` finds the author's open change of a record: a save that changes
   * part of a record (one option added) builds on it rather than replacing it. Absent for a
   * change its module submits itself through the gate's `submit` (a translators' file, which
   * may touch several collections at once).
   */
  propose?(
    ctx: AppContext,
    request: FastifyRequest,
    auth: AuthContext,
    own: (recordId: string) => Promise<ReviewChange | null>,
  ): Promise<ReviewProposal | null>;
  /**
   * Publishes the change through the collection's own service, as its author: its checks, its
   * 409 when the record moved from the base version, its audit entry and version. `ctx` is the
   * publisher's open command (command.ts inCommand): the service's save runs in it, with the
   * change's move to published.
   */
  apply(ctx: AppContext, change: ReviewChange, author: Actor, authorRole: Role): Promise<string | void>;
  /**
   * The change made again on the record as published now (it changed since its base): what the
   * change altered from its base is kept, the rest taken from the published state. Without it,
   * a rebase only moves the base version.
   */
  rebase?(ctx: AppContext, change: ReviewChange): Promise<ReviewProposal>;
  /** Work of the submission's own transaction (the add form's draft is done with once sent). */
  submitted?(trx: Transaction<Database>, change: ReviewChange, author: Actor): Promise<void>;
  /** The state the change would publish (null: the record leaves the app). */
  proposed(ctx: AppContext, change: ReviewChange): Promise<ReviewSnapshot | null>;
  /** An import's rows, for the review page: each row's result and the values it writes. */
  rows?(change: ReviewChange): Array<{ row: number; name: string; status: string; changed: string[]; values?: Record<string, string> }>;
}

/**
 * What a module supplies in its `reviewed.ts` (default export: a list of these): the saves of a
 * collection it can propose and publish, or the farmer app's view of a record (the preview).
 * They are listed by import in server/modules/collections.ts and merged by collection for the review
 * module; no module imports it.
 */
export interface ReviewedPart {
  collection: ReviewCollection;
  actions?: Partial<Record<ReviewAction, ReviewedAction>>;
  /** The public API's JSON of a record in this state, for the app preview. */
  preview?(ctx: AppContext, recordId: string | null, snapshot: ReviewSnapshot): Promise<unknown>;
}

/** One pending change of a submission that may hold several. */
export interface ReviewSubmission {
  collection: ReviewCollection;
  action: ReviewAction;
  proposal: ReviewProposal;
}

export interface ReviewGate {
  /** true when the request was taken as a pending change (the reply is sent). */
  intercept(request: FastifyRequest, reply: FastifyReply, route: ReviewRoute): Promise<boolean>;
  /** Whether the collection's changes need review now. */
  reviewed(collection: string): Promise<boolean>;
  /**
   * Pending changes a module builds itself (a file touching several collections), sent in one
   * transaction with `alongside`: the request's writes to collections that need no review.
   * Either all of it is saved or none.
   */
  submit<T>(
    request: FastifyRequest,
    items: readonly ReviewSubmission[],
    alongside: (trx: Transaction<Database>, cmd: Command) => Promise<T>,
  ): Promise<{ changes: Array<{ id: string; collection: string }>; result: T }>;
  /**
   * As submit, with whether each item's collection needs review read inside the transaction:
   * the others' collections are handed to `alongside`, which writes them in the same transaction.
   */
  submitWhereReviewed<T>(
    request: FastifyRequest,
    items: readonly ReviewSubmission[],
    alongside: (trx: Transaction<Database>, cmd: Command, unreviewed: string[]) => Promise<T>,
  ): Promise<{ changes: Array<{ id: string; collection: string }>; result: T }>;
}

/**
 * Every route that declares config.review passes through the gate before its handler: when
 * its collection's changes need review, the gate answers 202 with the pending change and the
 * handler does not run. Without a gate (or with review off), the route behaves as it always has.
 */
export function registerReviewGate(app: FastifyInstance): void {
  app.decorate('reviewGate', { current: null as ReviewGate | null });
  app.addHook('onRoute', (route) => {
    const review = route.config?.review;
    if (!review) return;
    const gate: preHandlerAsyncHookHandler = async function (request, reply) {
      const taken = await app.reviewGate.current?.intercept(request, reply, review);
      if (taken) return reply;
    };
    const existing = route.preHandler === undefined ? [] : Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler];
    route.preHandler = [...existing, gate];
  });
}
