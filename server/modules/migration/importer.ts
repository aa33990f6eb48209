import crypto from 'node:crypto';
import path from 'node:path';
import bcrypt from 'bcrypt';
import { normalizeRole } from '../../../common/permissions.js';
import { ACCOUNT_ENUMS_ID, DISEASE_ENUMS_ID, VARIETY_ENUMS_ID } from '../../../common/schemas/maintenance.js';
import { appendAuditRows, sealAuditChain, type AuditRow } from '../../platform/audit.js';
import { runCommand } from '../../platform/command.js';
import { nowIso } from '../../platform/clock.js';
import type { AppContext } from '../../platform/context.js';
import { hashPassword, isHash } from '../../platform/passwords.js';
import { safeSegment } from '../../platform/storage.js';
import { fileUrl } from '../../platform/storage.js';
import { maintenanceRepository } from '../maintenance/repository.js';
import { normalizeIdentity } from '../accounts/repository.js';
import { plain, readCollections, toBool, toInt, toIso, toList, toNumber, toText, type ExportDoc } from './firestore.js';
import { migrationRepository as repo, type ImportTable } from './repository.js';

export interface ImportOptions {
  dryRun?: boolean;
  /** Try to download image URLs into storage (otherwise they stay external). */
  fetchImages?: boolean;
  fetchTimeoutMs?: number;
  onProgress?: (progress: { phase: string; done: number; total: number }) => void;
}

type Outcome = 'created' | 'updated' | 'unchanged' | 'skipped';
export interface ImportReport {
  dryRun: boolean;
  counts: Record<string, Record<Outcome, number>>;
  images: { fetched: number; external: string[]; unchanged: number };
  problems: string[];
}

const ORDER = ['maintenance', 'accounts', 'rice_seed_varieties', 'rice_local_pests', 'rice_local_diseases', 'audit_logs'] as const;
const STORAGE_FOLDER = { rice_local_pests: 'rice_pests', rice_local_diseases: 'rice_disease' } as const;
const IMAGE_TYPES: Array<[string, (b: Buffer) => boolean, string]> = [
  ['image/jpeg', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff, '.jpg'],
  ['image/png', (b) => b.subarray(0, 8).equals(Buffer.from('89504e470d0a1a0a', 'hex')), '.png'],
  ['image/gif', (b) => b.subarray(0, 4).toString('latin1') === 'GIF8', '.gif'],
  ['image/webp', (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP', '.webp'],
];

/** Stable ids for rows the export has no id for (images), so a second run finds them again. */
function stableId(...parts: string[]): string {
  const h = crypto.createHash('sha256').update(parts.join('\u0000')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** A stored secret that already equals the export's plain value is kept (hashing again would differ). */
async function secretFor(plainOrHash: string | null, existing: unknown, normalise: (s: string) => string = (s) => s): Promise<string | null> {
  if (plainOrHash === null) return null;
  if (isHash(plainOrHash)) return plainOrHash;
  const value = normalise(plainOrHash);
  if (typeof existing === 'string' && isHash(existing) && (await bcrypt.compare(value, existing))) return existing;
  return hashPassword(value);
}

export async function importFirestoreExport(ctx: AppContext, json: unknown, options: ImportOptions = {}): Promise<ImportReport> {
  const { db, storage } = ctx;
  const dryRun = options.dryRun ?? false;
  const collections = readCollections(json);
  const report: ImportReport = { dryRun, counts: {}, images: { fetched: 0, external: [], unchanged: 0 }, problems: [] };
  const count = (collection: string, outcome: Outcome) => {
    report.counts[collection] ??= { created: 0, updated: 0, unchanged: 0, skipped: 0 };
    report.counts[collection][outcome] += 1;
  };
  for (const name of Object.keys(collections)) {
    if (!(ORDER as readonly string[]).includes(name)) report.problems.push(`Collection "${name}" is not part of the console and was ignored.`);
  }
  const total = ORDER.reduce((n, c) => n + Object.keys(collections[c] ?? {}).length, 0);
  let done = 0;
  const tick = (phase: string) => { done += 1; options.onProgress?.({ phase, done, total }); };
  const importedAt = nowIso();

  /**
   * A document whose exported content is the same as at the last import is left alone, even
   * if staff changed the record since (a re-run never undoes their work).
   */
  async function seenBefore(collection: string, id: string, doc: ExportDoc): Promise<{ hash: string; same: boolean }> {
    const hash = crypto.createHash('sha256').update(JSON.stringify(doc)).digest('hex');
    const last = await repo.lastImportHash(db, collection, id);
    if (last === hash) count(collection, 'unchanged');
    return { hash, same: last === hash };
  }
  async function remember(collection: string, id: string, hash: string): Promise<void> {
    if (!dryRun) await repo.recordImport(db, collection, id, hash, importedAt);
  }

  /** Creates or updates one row; compares the mapped fields so an unchanged row is left alone. */
  async function upsert(table: ImportTable, collection: string, id: string, row: Record<string, unknown>): Promise<Outcome> {
    const existing = await repo.findById(db, table, id);
    if (!existing) {
      if (!dryRun) await repo.insert(db, table, { id, ...row });
      count(collection, 'created');
      return 'created';
    }
    const changed = Object.fromEntries(Object.entries(row).filter(([k, v]) => !same(existing[k], v)));
    if (Object.keys(changed).length === 0) {
      count(collection, 'unchanged');
      return 'unchanged';
    }
    if (!dryRun) await repo.update(db, table, id, changed);
    count(collection, 'updated');
    return 'updated';
  }

  async function fetchImage(url: string): Promise<{ body: Buffer; mime: string; ext: string } | null> {
    if (!options.fetchImages || !/^https?:\/\//i.test(url)) return null;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(options.fetchTimeoutMs ?? 10_000), redirect: 'follow' });
      if (!res.ok) return null;
      const body = Buffer.from(await res.arrayBuffer());
      const type = IMAGE_TYPES.find(([, test]) => test(body));
      return type ? { body, mime: type[0], ext: type[2] } : null;
    } catch {
      return null;
    }
  }

  // Option lists.
  for (const [docId, doc] of Object.entries(collections.maintenance ?? {})) {
    tick('maintenance');
    const seen = await seenBefore('maintenance', docId, doc);
    if (seen.same) continue;
    const lists: Record<string, string[]> = {};
    const keys = docId === VARIETY_ENUMS_ID ? ['seasons', 'plantingMethods', 'environments', 'yearReleases'] : docId === ACCOUNT_ENUMS_ID ? ['securityQuestions'] : docId === DISEASE_ENUMS_ID ? ['affectedParts'] : null;
    if (!keys) { report.problems.push(`maintenance/${docId} is not an option-list document; ignored.`); count('maintenance', 'skipped'); continue; }
    for (const k of keys) lists[k] = [...new Set(toList(doc[k]))];
    const existing = await maintenanceRepository.find(db, docId);
    const current = existing ? Object.fromEntries(keys.map((k) => [k, existing.data[k] ?? []])) : null;
    if (current && same(current, lists)) { count('maintenance', 'unchanged'); await remember('maintenance', docId, seen.hash); continue; }
    if (!dryRun) {
      if (existing) await maintenanceRepository.update(db, docId, { ...existing.data, ...lists }, toIso(doc.updatedAt) ?? importedAt);
      else await maintenanceRepository.insertIfMissing(db, docId, lists, toIso(doc.createdAt) ?? importedAt);
    }
    count('maintenance', existing ? 'updated' : 'created');
    await remember('maintenance', docId, seen.hash);
  }

  // Accounts: ids kept; plain passwords and security answers hashed on the way in.
  for (const [id, doc] of Object.entries(collections.accounts ?? {})) {
    tick('accounts');
    const seen = await seenBefore('accounts', id, doc);
    if (seen.same) continue;
    const username = toText(doc.username) ?? toText(doc.email)?.split('@')[0] ?? null;
    const password = toText(doc.password);
    if (!username || !password) {
      report.problems.push(`accounts/${id}: no ${!username ? 'username' : 'password'}; skipped.`);
      count('accounts', 'skipped');
      continue;
    }
    const email = toText(doc.email);
    const clash = await repo.findAccountIdByNormalized(db, 'normalizedUsername', normalizeIdentity(username));
    const emailClash = email ? await repo.findAccountIdByNormalized(db, 'normalizedEmail', normalizeIdentity(email)) : undefined;
    if ((clash && clash.id !== id) || (emailClash && emailClash.id !== id)) {
      report.problems.push(`accounts/${id}: username or email already used by another account; skipped.`);
      count('accounts', 'skipped');
      continue;
    }
    const existing = await repo.findById(db, 'accounts', id);
    const restricted = toBool(doc.isRestricted) || toText(doc.status) === 'restricted';
    const status = restricted ? 'restricted' : (['active', 'inactive'].includes(toText(doc.status) ?? '') ? toText(doc.status)! : 'active');
    const photo = toText(doc.photoURL);
    let photoURL = photo;
    if (photo && /^https?:\/\//i.test(photo)) {
      const key = `avatars/${safeSegment(id)}/avatar_imported_${stableId(photo).slice(0, 8)}`;
      const known = typeof existing?.photoURL === 'string' && existing.photoURL.startsWith(fileUrl(key));
      if (known) photoURL = existing!.photoURL as string;
      else {
        const image = dryRun ? null : await fetchImage(photo);
        if (image) {
          await storage.put(key + image.ext, image.body);
          photoURL = fileUrl(key + image.ext);
          report.images.fetched += 1;
        } else report.images.external.push(`accounts/${id} photoURL ${photo}`);
      }
    }
    const row = {
      fullname: toText(doc.fullname) ?? toText(doc.fullName) ?? toText(doc.name) ?? username,
      username,
      normalizedUsername: normalizeIdentity(username),
      email,
      normalizedEmail: email ? normalizeIdentity(email) : null,
      contactNo: toText(doc.contactNo),
      photoURL,
      password: dryRun ? (existing?.password ?? password) : await secretFor(password, existing?.password),
      securityQuestion: toText(doc.securityQuestion),
      securityAnswer: dryRun ? (existing?.securityAnswer ?? null) : await secretFor(toText(doc.securityAnswer), existing?.securityAnswer, (s) => s.trim().toLowerCase()),
      role: normalizeRole(doc.role),
      status,
      isRestricted: restricted ? 1 : 0,
      restrictedAt: toIso(doc.restrictedAt),
      autoInactive: toBool(doc.autoInactive) ? 1 : 0,
      autoInactiveAt: toIso(doc.autoInactiveAt),
      lastLogin: toIso(doc.lastLogin),
      lastLogoutAt: toIso(doc.lastLogoutAt),
      createdAt: toIso(doc.createdAt) ?? (existing?.createdAt as string | undefined) ?? importedAt,
      updatedAt: toIso(doc.updatedAt),
      isDeleted: toBool(doc.isDeleted) ? 1 : 0,
      deletedAt: toIso(doc.deletedAt),
      deletedBy: toText(doc.deletedBy),
    };
    await upsert('accounts', 'accounts', id, existing ? row : { ...row, currentSession: null });
    await remember('accounts', id, seen.hash);
  }

  // Rice varieties.
  for (const [id, doc] of Object.entries(collections.rice_seed_varieties ?? {})) {
    tick('rice_seed_varieties');
    const seen = await seenBefore('rice_seed_varieties', id, doc);
    if (seen.same) continue;
    const varietyName = toText(doc.varietyName);
    if (!varietyName) { report.problems.push(`rice_seed_varieties/${id}: no varietyName; skipped.`); count('rice_seed_varieties', 'skipped'); continue; }
    const existing = await repo.findById(db, 'rice_seed_varieties', id);
    await upsert('rice_seed_varieties', 'rice_seed_varieties', id, {
      varietyName,
      releaseName: toText(doc.releaseName),
      yearRelease: toText(doc.yearRelease),
      breedingCode: toText(doc.breedingCode),
      breederOrigin: toText(doc.breederOrigin),
      maturityDays: toInt(doc.maturityDays),
      averageYield: toNumber(doc.averageYield),
      maxYield: toNumber(doc.maxYield),
      plantHeight: toInt(doc.plantHeight),
      tillers: toInt(doc.tillers),
      location: toText(doc.location),
      season: JSON.stringify(toList(doc.season)),
      plantingMethod: toText(doc.plantingMethod),
      environment: JSON.stringify(toList(doc.environment)),
      recommendedInTarlac: toBool(doc.recommendedInTarlac) ? 1 : 0,
      isDeleted: toBool(doc.isDeleted) ? 1 : 0,
      createdAt: toIso(doc.createdAt) ?? (existing?.createdAt as string | undefined) ?? importedAt,
      updatedAt: toIso(doc.updatedAt),
      deletedAt: toIso(doc.deletedAt),
      deletedBy: toText(doc.deletedBy),
    });
    await remember('rice_seed_varieties', id, seen.hash);
  }

  // Pests and diseases, with their images fetched into storage when reachable.
  for (const collection of ['rice_local_pests', 'rice_local_diseases'] as const) {
    for (const [id, doc] of Object.entries(collections[collection] ?? {})) {
      tick(collection);
      const seen = await seenBefore(collection, id, doc);
      if (seen.same) continue;
      const name = toText(doc.name);
      if (!name) { report.problems.push(`${collection}/${id}: no name; skipped.`); count(collection, 'skipped'); continue; }
      const urls = [...new Set([...toList(doc.images), ...(toText(doc.mainImageUrl) ? [toText(doc.mainImageUrl)!] : [])])];
      const existing = await repo.findById(db, collection, id);
      const imageUrls: string[] = [];
      for (const [position, url] of urls.entries()) {
        const imageId = stableId(collection, id, url);
        const known = await repo.findById(db, 'catalog_images', imageId);
        if (known) {
          report.images.unchanged += 1;
          imageUrls.push(known.originalKey ? fileUrl(known.originalKey as string) : (known.externalUrl as string));
          continue;
        }
        const image = dryRun ? null : await fetchImage(url);
        const createdAt = toIso(doc.createdAt) ?? importedAt;
        let row: Record<string, unknown>;
        if (image) {
          const base = safeSegment(decodeURIComponent(path.basename(new URL(url).pathname)).replace(/\.[^.]+$/, ''), 'image');
          const key = `${STORAGE_FOLDER[collection]}/${safeSegment(name)}/${Date.parse(createdAt)}_${position}_${imageId.slice(0, 8)}_${base}${image.ext}`;
          await storage.put(key, image.body);
          row = { status: 'pending', originalKey: key, mimeType: image.mime, sizeBytes: image.body.length, sha256: crypto.createHash('sha256').update(image.body).digest('hex'), externalUrl: null };
          report.images.fetched += 1;
          imageUrls.push(fileUrl(key));
        } else {
          row = { status: 'external', originalKey: null, mimeType: null, sizeBytes: null, sha256: null, externalUrl: url };
          report.images.external.push(`${collection}/${id} ${url}`);
          imageUrls.push(url);
        }
        if (!dryRun) {
          await repo.insert(db, 'catalog_images', {
            id: imageId, collection, entryId: id, position, displayKey: null, thumbKey: null, width: null, height: null,
            originalName: path.basename(url.split('?')[0] ?? url), uploadedBy: null, createdAt, linkedAt: createdAt, ...row,
          });
        }
      }
      await upsert(collection, collection, id, {
        name,
        scientificName: toText(doc.scientificName),
        description: toText(doc.description),
        cause: toText(doc.cause),
        symptoms: toText(doc.symptoms),
        treatments: toText(doc.treatments),
        // The farmer app's fields, taken when the export has them (a re-import without them keeps what is stored).
        ...(doc.localName !== undefined ? { localName: toText(doc.localName) } : {}),
        ...(collection === 'rice_local_diseases' && doc.affectedParts !== undefined
          ? { affectedParts: JSON.stringify([...new Set(toList(doc.affectedParts).map((p) => p.trim()).filter(Boolean))]) } : {}),
        mainImageUrl: imageUrls[0] ?? null,
        isDeleted: toBool(doc.isDeleted) ? 1 : 0,
        createdAt: toIso(doc.createdAt) ?? (existing?.createdAt as string | undefined) ?? importedAt,
        updatedAt: toIso(doc.updatedAt),
        deletedAt: toIso(doc.deletedAt),
        deletedBy: toText(doc.deletedBy),
      });
      await remember(collection, id, seen.hash);
    }
  }

  // Audit entries: append-only, alternate fields (actorId, performedBy, name) kept as they are.
  // An entry imported before is left as it is; new ones join the chain, 500 per transaction.
  const pendingAudit: AuditRow[] = [];
  for (const [id, doc] of Object.entries(collections.audit_logs ?? {})) {
    tick('audit_logs');
    const raw = doc.timestamp;
    const timestamp = toIso(raw) ?? (typeof raw === 'string' ? raw : String(raw ?? ''));
    if (!toIso(raw)) report.problems.push(`audit_logs/${id}: timestamp ${JSON.stringify(raw)} is not a date; kept as it is (shown as Invalid Date).`);
    if (await repo.findById(db, 'audit_logs', id)) { count('audit_logs', 'unchanged'); continue; }
    if (!dryRun) pendingAudit.push({
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
    count('audit_logs', 'created');
    if (pendingAudit.length >= 500) await appendAuditRows(db, pendingAudit.splice(0));
  }
  await appendAuditRows(db, pendingAudit.splice(0));

  const changed = Object.values(report.counts).reduce((n, c) => n + c.created + c.updated, 0);
  if (!dryRun && changed > 0) {
    await runCommand(ctx, null, async (_trx, cmd) => {
      await cmd.audit({
        action: 'CREATE',
        collection: 'import',
        documentId: null,
        documentName: 'Firebase export',
        description: `Imported the Firebase export: ${Object.entries(report.counts).map(([c, n]) => `${c} +${n.created} ~${n.updated}`).join(', ')}`,
      });
      for (const topic of ['accounts', 'rice_seed_varieties', 'rice_local_pests', 'rice_local_diseases', 'maintenance']) cmd.publish({ topic, op: 'import' });
    });
  }
  // Chained now, not by a running server's sealer: the import may run with no server.
  if (!dryRun) await sealAuditChain(db);
  return report;
}
