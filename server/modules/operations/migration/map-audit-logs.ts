import { appendAuditRows, type AuditRow } from '../../../platform/writes/audit.js';
import { plain, toIso, toText, type ExportCollections } from './firestore.js';
import { migrationRepository as repo } from './repository.js';
import { type ImportRun } from './import-run.js';

/**
 * Audit entries: append-only, alternate fields (actorId, performedBy, name) kept as they are.
 * An entry imported before is left as it is; new ones join the chain, 500 per transaction.
 */
export async function importAuditLogs(run: ImportRun, docs: ExportCollections[string]): Promise<void> {
  const pendingAudit: AuditRow[] = [];
  for (const [id, doc] of Object.entries(docs)) {
    run.tick('audit_logs');
    const raw = doc.timestamp;
    const timestamp = toIso(raw) ?? (typeof raw === 'string' ? raw : String(raw ?? ''));
    if (!toIso(raw))
      run.report.problems.push(`audit_logs/${id}: timestamp ${JSON.stringify(raw)} is not a date; kept as it is (shown as Invalid Date).`);
    if (await repo.findById(run.db, 'audit_logs', id)) {
      run.count('audit_logs', 'unchanged');
      continue;
    }
    if (!run.dryRun)
      pendingAudit.push({
        id,
        userId: toText(doc.userId),
        userName: toText(doc.userName),
        userEmail: toText(doc.userEmail),
        timestamp,
        action: toText(doc.action) ?? 'UNKNOWN',
        collection: toText(doc.collection),
        documentId: toText(doc.documentId),
        documentName: toText(doc.documentName),
        description: toText(doc.description),
        changes: doc.changes === undefined ? null : JSON.stringify(plain(doc.changes)),
        details: doc.details === undefined ? null : JSON.stringify(plain(doc.details)),
        actorId: toText(doc.actorId),
        performedBy: toText(doc.performedBy),
        name: toText(doc.name),
      });
    run.count('audit_logs', 'created');
    if (pendingAudit.length >= 500) await appendAuditRows(run.db, pendingAudit.splice(0));
  }
  await appendAuditRows(run.db, pendingAudit.splice(0));
}
