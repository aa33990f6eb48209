import bcrypt from 'bcrypt';
import { normalizeRole } from '../../../../common/permissions.js';
import { AVATAR } from '../../../../common/profile.js';
import { EXTENSION_OF, type SniffedType } from '../../content/photos/index.js';
import { probeImage } from '../../content/photos/index.js';
import { hashPassword, isHash } from '../../../platform/identity/passwords.js';
import { cleanPhoto, UnreadablePhotoError, type CleanPhoto } from '../../content/photos/index.js';
import { fitPhotoEdge } from '../../content/photos/index.js';
import { fileUrl, safeSegment } from '../../../platform/storage/storage.js';
import { normalizeIdentity } from '../../identity/accounts/index.js';
import { toBool, toIso, toText, type ExportCollections } from './firestore.js';
import { migrationRepository as repo } from './repository.js';
import { stableId, type FetchedImage, type ImportRun } from './import-run.js';

/** A stored secret that already equals the export's plain value is kept (hashing again would differ). */
async function secretFor(
  plainOrHash: string | null,
  existing: unknown,
  normalise: (s: string) => string = (s) => s,
): Promise<string | null> {
  if (plainOrHash === null) return null;
  if (isHash(plainOrHash)) return plainOrHash;
  const value = normalise(plainOrHash);
  if (typeof existing === 'string' && isHash(existing) && (await bcrypt.compare(value, existing))) return existing;
  return hashPassword(value);
}

/**
 * The photoURL of an imported account: the picture fetched and taken in as an uploaded photo is
 * (accepted type by its bytes, no location or identifying metadata, at most AVATAR.maxInputPixels
 * read and AVATAR.maxSide kept) and stored; the link as it is when fetching is off or on a dry
 * run. A picture that cannot be fetched or taken in leaves the account without one, reported.
 */
async function importAvatar(run: ImportRun, id: string, url: string | null, existing: unknown): Promise<string | null> {
  if (!url) return null;
  if (!/^https?:\/\//i.test(url)) {
    run.report.problems.push(`accounts/${id}: profile picture ${url.slice(0, 80)} is not an http(s) link; the account has none.`);
    return null;
  }
  const key = `avatars/${safeSegment(id)}/avatar_imported_${stableId(url).slice(0, 8)}`;
  if (typeof existing === 'string' && existing.startsWith(fileUrl(key))) return existing;
  if (run.dryRun || !run.fetchImages) {
    run.report.images.external.push(`accounts/${id} photoURL ${url}`);
    return url;
  }
  const image = await run.fetchImage(url);
  const avatar = 'body' in image ? await takeInAvatar(image) : image;
  if ('failed' in avatar) {
    run.report.problems.push(`accounts/${id}: profile picture ${url} not imported (${avatar.failed}); the account has none.`);
    return null;
  }
  await run.storage.put(key + EXTENSION_OF[avatar.type], avatar.body);
  run.report.images.fetched += 1;
  return fileUrl(key + EXTENSION_OF[avatar.type]);
}

async function takeInAvatar(image: FetchedImage): Promise<{ body: Buffer; type: SniffedType } | { failed: string }> {
  let clean: CleanPhoto;
  try {
    clean = cleanPhoto(image.body, image.mime);
  } catch (err) {
    if (err instanceof UnreadablePhotoError) return { failed: 'not a readable image' };
    throw err;
  }
  const probe = await probeImage(clean.body);
  if (!probe) return { failed: 'not a readable image' };
  if (probe.width * probe.height > AVATAR.maxInputPixels) return { failed: `more than ${AVATAR.maxInputPixels} pixels` };
  const sized = await fitPhotoEdge(clean.body, image.mime, clean.camera, AVATAR.maxSide, probe).catch(() => null);
  return sized ?? { failed: 'not a readable image' };
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
    const status = restricted ? 'restricted' : ['active', 'inactive'].includes(toText(doc.status) ?? '') ? toText(doc.status)! : 'active';
    const photoURL = await importAvatar(run, id, toText(doc.photoURL), existing?.photoURL);
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
      securityAnswer: run.dryRun
        ? (existing?.securityAnswer ?? null)
        : await secretFor(toText(doc.securityAnswer), existing?.securityAnswer, (s) => s.trim().toLowerCase()),
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
