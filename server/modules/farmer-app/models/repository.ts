import { expressionBuilder, type Kysely, type Transaction } from 'kysely';
import { MODEL_LIMITS } from '../../../../common/models.js';
import type { Database } from '../../../db/types.js';
import { lease } from '../../../platform/background/lease.js';
import type { ModelEvaluationsTable, ModelPredictionsTable, ModelPublicationsTable, ScannerModelsTable } from '../../../db/types/models.js';

type Db = Kysely<Database> | Transaction<Database>;

/** A running evaluation's lease: its instance beats, and one silent for staleAfterMs is taken over. */
const evaluationLease = lease({
  table: 'model_evaluations',
  key: 'id',
  holder: 'claimedBy',
  time: 'heartbeatAt',
  timeIs: 'renewed',
  ttlMs: MODEL_LIMITS.staleAfterMs,
});
const evaluation = expressionBuilder<Database, 'model_evaluations'>();

/** Queries of scanner models, their evaluations and predictions, and the channels' history. */
export const modelsRepository = {
  list(db: Db) {
    return db.selectFrom('scanner_models').selectAll().orderBy('createdAt', 'desc').orderBy('id', 'desc').execute();
  },

  find(db: Db, id: string) {
    return db.selectFrom('scanner_models').selectAll().where('id', '=', id).executeTakeFirst();
  },

  findByVersion(db: Db, version: string) {
    return db.selectFrom('scanner_models').selectAll().where('version', '=', version).executeTakeFirst();
  },

  /** Every version name ever uploaded (scan reports naming another are marked unknown). */
  async versions(db: Db): Promise<Set<string>> {
    return new Set((await db.selectFrom('scanner_models').select('version').execute()).map((r) => r.version));
  },

  async nextNumber(db: Db, stage: string): Promise<number> {
    const row = await db
      .selectFrom('scanner_models')
      .select((eb) => eb.fn.max<number>('number').as('n'))
      .where('stage', '=', stage)
      .executeTakeFirst();
    return Number(row?.n ?? 0) + 1;
  },

  async insert(db: Db, row: ScannerModelsTable): Promise<void> {
    await db.insertInto('scanner_models').values(row).execute();
  },

  /** Writes `values` when the stored edit version is `version`; false when another write came first. */
  async updateAt(
    db: Db,
    id: string,
    version: number,
    values: Partial<Pick<ScannerModelsTable, 'labels' | 'contract' | 'thresholds' | 'note' | 'testVectors'>>,
  ): Promise<boolean> {
    const result = await db
      .updateTable('scanner_models')
      .set({ ...values, recordVersion: version + 1 })
      .where('id', '=', id)
      .where('recordVersion', '=', version)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  /** Names of these records, live or not. */
  /** Keeps a model's test vectors, made under `contract`: not when its contract has changed since. */
  async setTestVectors(db: Db, id: string, contract: string, testVectors: string): Promise<void> {
    await db.updateTable('scanner_models').set({ testVectors }).where('id', '=', id).where('contract', '=', contract).execute();
  },

  /** The training classes whose photos are not of rice plants. */
  async notRicePlantIds(db: Db): Promise<Set<string>> {
    const rows = await db.selectFrom('rice_local_diseases').select('id').where('notRicePlant', '=', 1).execute();
    return new Set(rows.map((r) => r.id));
  },

  recordNames(db: Db, ids: readonly string[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('rice_local_diseases')
      .select(['id', 'name', 'localName', 'isDeleted'])
      .where('id', 'in', [...ids])
      .execute();
  },

  // Evaluations

  evaluationsOf(db: Db, modelIds: readonly string[]) {
    if (modelIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('model_evaluations')
      .select([
        'id',
        'modelId',
        'state',
        'split',
        'seed',
        'ratios',
        'photoSetSha256',
        'total',
        'done',
        'accuracy',
        'macroF1',
        'error',
        'createdAt',
        'finishedAt',
        'evaluationSetId',
        'evaluationSetName',
      ])
      .where('modelId', 'in', [...modelIds])
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'desc')
      .execute();
  },

  findEvaluation(db: Db, id: string) {
    return db.selectFrom('model_evaluations').selectAll().where('id', '=', id).executeTakeFirst();
  },

  async insertEvaluation(db: Db, row: ModelEvaluationsTable): Promise<void> {
    await db.insertInto('model_evaluations').values(row).execute();
  },

  /** An evaluation of this model that is waiting or running, if any. */
  activeEvaluation(db: Db, modelId: string) {
    return db
      .selectFrom('model_evaluations')
      .select('id')
      .where('modelId', '=', modelId)
      .where('state', 'in', ['queued', 'running'])
      .executeTakeFirst();
  },

  /** Claims the oldest waiting evaluation, or a running one whose lease ran out or that `instance` itself lost, for `instance`. */
  async claim(db: Db, instance: string, now = Date.now()): Promise<string | null> {
    const candidates = await db
      .selectFrom('model_evaluations')
      .select('id')
      .where('state', 'in', ['queued', 'running'])
      // This instance's own running ones too: it runs one at a time, so one it holds while asking is one it lost (a database error mid-run).
      .where((eb) => eb.or([evaluationLease.free(now), eb('claimedBy', '=', instance)]))
      .orderBy('createdAt')
      .limit(5)
      .execute();
    for (const c of candidates) {
      const also = { set: { state: 'running' }, where: evaluation('state', 'in', ['queued', 'running']) };
      if (await evaluationLease.claim(db, c.id, instance, also, now)) return c.id;
    }
    return null;
  },

  /** Progress of a claimed evaluation; false when it is no longer this instance's or cancelling was asked. */
  beat(db: Db, id: string, instance: string, done: number, now: string): Promise<boolean> {
    const also = { set: { done }, where: evaluation.and([evaluation('state', '=', 'running'), evaluation('cancelRequested', '=', 0)]) };
    return evaluationLease.renew(db, id, instance, also, Date.parse(now));
  },

  /** Gives a claimed evaluation back to the queue. */
  async release(db: Db, id: string, instance: string): Promise<void> {
    await evaluationLease.release(db, id, instance, { set: { state: 'queued' }, where: evaluation('state', '=', 'running') });
  },

  async finish(
    db: Db,
    id: string,
    values: Pick<ModelEvaluationsTable, 'state' | 'done' | 'accuracy' | 'macroF1' | 'error' | 'finishedAt'>,
  ): Promise<void> {
    await db.updateTable('model_evaluations').set(values).where('id', '=', id).execute();
  },

  async requestCancel(db: Db, id: string): Promise<boolean> {
    const result = await db
      .updateTable('model_evaluations')
      .set({ cancelRequested: 1 })
      .where('id', '=', id)
      .where('state', 'in', ['queued', 'running'])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  /** A queued evaluation is cancelled at once (nobody holds it). */
  async cancelQueued(db: Db, id: string, now: string): Promise<void> {
    await db
      .updateTable('model_evaluations')
      .set({ state: 'cancelled', finishedAt: now })
      .where('id', '=', id)
      .where('state', '=', 'queued')
      .execute();
  },

  async insertPredictions(db: Db, rows: ModelPredictionsTable[]): Promise<void> {
    if (rows.length === 0) return;
    await db
      .insertInto('model_predictions')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['evaluationId', 'imageId']).doUpdateSet((eb) => ({
          predicted: eb.ref('excluded.predicted'),
          confidence: eb.ref('excluded.confidence'),
          top: eb.ref('excluded.top'),
        })),
      )
      .execute();
  },

  async predictedIds(db: Db, evaluationId: string): Promise<Set<string>> {
    return new Set(
      (await db.selectFrom('model_predictions').select('imageId').where('evaluationId', '=', evaluationId).execute()).map((r) => r.imageId),
    );
  },

  predictions(db: Db, evaluationId: string) {
    return db
      .selectFrom('model_predictions')
      .select(['imageId', 'diseaseId', 'predicted', 'confidence', 'top'])
      .where('evaluationId', '=', evaluationId)
      .orderBy('imageId')
      .execute();
  },

  /** A finished evaluation of `modelId` on exactly this photo set (and, when given, pixel contract), newest first. */
  doneOnPhotoSet(db: Db, modelId: string, photoSetSha256: string, contractSha256?: string) {
    let q = db
      .selectFrom('model_evaluations')
      .selectAll()
      .where('modelId', '=', modelId)
      .where('photoSetSha256', '=', photoSetSha256)
      .where('state', '=', 'done');
    if (contractSha256) q = q.where('contractSha256', '=', contractSha256);
    return q.orderBy('finishedAt', 'desc').executeTakeFirst();
  },

  doneOf(db: Db, modelId: string) {
    return db.selectFrom('model_evaluations').select('id').where('modelId', '=', modelId).where('state', '=', 'done').execute();
  },

  async setMetrics(db: Db, id: string, accuracy: number | null, macroF1: number | null): Promise<void> {
    await db.updateTable('model_evaluations').set({ accuracy, macroF1 }).where('id', '=', id).execute();
  },

  /** Whether a model is on a channel now. */
  async onChannel(db: Db, modelId: string): Promise<boolean> {
    return (await this.current(db)).some((c) => c.modelId === modelId);
  },

  // Publications

  async publications(db: Db, limit = 100) {
    return db
      .selectFrom('model_publications')
      .leftJoin('scanner_models as m', 'm.id', 'model_publications.modelId')
      .select([
        'model_publications.id',
        'model_publications.stage',
        'model_publications.channel',
        'model_publications.action',
        'model_publications.modelId',
        'm.version',
        'model_publications.share',
        'model_publications.note',
        'model_publications.overrideReason',
        'model_publications.createdBy',
        'model_publications.createdAt',
      ])
      .orderBy('model_publications.createdAt', 'desc')
      .orderBy('model_publications.seq', 'desc')
      .limit(limit)
      .execute();
  },

  /** The newest rows of one stage's channel, newest first. */
  channelHistory(db: Db, stage: string, channel: string, limit: number) {
    return db
      .selectFrom('model_publications')
      .selectAll()
      .where('stage', '=', stage)
      .where('channel', '=', channel)
      .orderBy('seq', 'desc')
      .limit(limit)
      .execute();
  },

  /** What each stage's channels serve now: their newest rows. */
  async current(db: Db): Promise<ModelPublicationsTable[]> {
    const latest = db
      .selectFrom('model_publications')
      .select(['stage', 'channel', (eb) => eb.fn.max<number>('seq').as('seq')])
      .groupBy(['stage', 'channel']);
    return db
      .selectFrom('model_publications')
      .innerJoin(latest.as('l'), (j) =>
        j
          .onRef('l.stage', '=', 'model_publications.stage')
          .onRef('l.channel', '=', 'model_publications.channel')
          .onRef('l.seq', '=', 'model_publications.seq'),
      )
      .selectAll('model_publications')
      .execute();
  },

  /**
   * Appends a channel's next row. Its seq is one past the newest, unique per stage and channel,
   * so of two publishes that read the same newest row one fails instead of both landing.
   */
  async appendPublication(db: Db, row: Omit<ModelPublicationsTable, 'seq'>, expectedSeq: number): Promise<void> {
    await db
      .insertInto('model_publications')
      .values({ ...row, seq: expectedSeq + 1 })
      .execute();
  },
};
