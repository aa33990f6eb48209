import bcrypt from 'bcrypt';
import { normalizeRole } from '../../../common/permissions.js';
import { hashPassword, isHash } from '../../platform/passwords.js';
import { fileUrl, safeSegment } from '../../platform/storage.js';
import { normalizeIdentity } from '../accounts/repository.js';
import { toBool, toIso, toText, type ExportCollections } from './firestore.js';
import { migrationRepository as repo } from './repository.js';
import { stableId, type ImportRun } from './import-run.js';

/** A stored secret that already equals the export's plain value is kept (hashing again would differ). */
async function secretFor(plainOrHash: string | null, existing: unknown, normalise: (s: string) => string = (s) => s): Promise<string | null> {
  if (plainOrHash === null) return null;
  if (isHash(plainOrHash)) return plainOrHash;
  const value = normalise(plainOrHash);
  if (typeof existing === 'string' && isHash(existing) && (await bcrypt.compare(value, existing))) return existing;
  return hashPassword(value);
}

/** Accounts: ids kept; plain passwords and security answers hashed on the way in. */
export async function importAccounts(run: ImportRun, docs: ExportCollections[string]): Promise<void> {
  for (const [id, doc] of Object.entries(docs)) {
    run.tick('accounts');
    const seen = await run.seenBefore('accounts', id, doc);
    if (seen.same) continue;
    const username = toText(doc.username) ?? toText(doc.email)?.split('@')[0] ?? null;
    const password = toText(doc.password);
    if (!username || !password) {
      run.report.problems.push(`accounts/${id}: no ${!username ? 'username' : 'password'}; skipped.`);
      run.count('accounts', 'skipped');
      continue;
    }
    const email = toText(doc.email);
    const clash = await repo.findAccountIdByNormalized(run.db, 'normalizedUsername', normalizeIdentity(username));
    const emailClash = email ? await repo.findAccountIdByNormalized(run.db, 'normalizedEmail', normalizeIdentity(email)) : undefined;
    if ((clash && clash.id !== id) || (emailClash && emailClash.id !== id)) {
      run.report.problems.push(`accounts/${id}: username or email already used by another account; skipped.`);
      run.count('accounts', 'skipped');
      continue;
    }
    const existing = await repo.findById(run.db, 'accounts', id);
    const restricted = toBool(doc.isRestricted) || toText(doc.status) === 'restricted';
    const status = restricted ? 'restricted' : (['active', 'inactive'].includes(toText(doc.status) ?? '') ? toText(doc.status)! : 'active');
    const photo = toText(doc.photoURL);
    let photoURL = photo;
    if (photo && /^https?:\/\//i.test(photo)) {
      const key = `avatars/${safeSegment(id)}/avatar_imported_${stableId(photo).slice(0, 8)}`;
      const known = typeof existing?.photoURL === 'string' && existing.photoURL.startsWith(fileUrl(key));
      if (known) photoURL = existing!.photoURL as string;
      else {
        const image = run.dryRun ? null : await run.fetchImage(photo);
        if (image) {
          await run.storage.put(key + image.ext, image.body);
          photoURL = fileUrl(key + image.ext);
          run.report.images.fetched += 1;
        } else run.report.images.external.push(`accounts/${id} photoURL ${photo}`);
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
      password: run.dryRun ? (existing?.password ?? password) : await secretFor(password, existing?.password),
      securityQuestion: toText(doc.securityQuestion),
      securityAnswer: run.dryRun ? (existing?.securityAnswer ?? null) : await secretFor(toText(doc.securityAnswer), existing?.securityAnswer, (s) => s.trim().toLowerCase()),
      role: normalizeRole(doc.role),
      status,
      isRestricted: restricted ? 1 : 0,
      restrictedAt: toIso(doc.restrictedAt),
      autoInactive: toBool(doc.autoInactive) ? 1 : 0,
      autoInactiveAt: toIso(doc.autoInactiveAt),
      lastLogin: toIso(doc.lastLogin),
      lastLogoutAt: toIso(doc.lastLogoutAt),
      createdAt: toIso(doc.createdAt) ?? (existing?.createdAt as string | undefined) ?? run.importedAt,
      updatedAt: toIso(doc.updatedAt),
      isDeleted: toBool(doc.isDeleted) ? 1 : 0,
      deletedAt: toIso(doc.deletedAt),
      deletedBy: toText(doc.deletedBy),
    };
    await run.upsert('accounts', 'accounts', id, existing ? row : { ...row, currentSession: null });
    await run.remember('accounts', id, seen.hash);
  }
}
