import type { Profile, ProfileUpdateInput } from '../../../../common/schemas/profile.js';
import { AVATAR, SETTINGS } from '../../../../common/profile.js';
import { runCommand } from '../../../platform/writes/command.js';
import { nowIso } from '../../../platform/support/clock.js';
import type { AppContext, AuthContext } from '../../../platform/http/context.js';
import { AppError, fail, invalid } from '../../../platform/http/errors.js';
import { assertUpdated } from '../../../platform/writes/versioning.js';
import { normalizeIdentity } from '../accounts/index.js';
import { voidEmailedLinks } from '../credentials/index.js';
import { fileUrl } from '../../../platform/storage/storage.js';
import { identityCheck } from '../credentials/index.js';
import { getAccountEnums } from '../../content/maintenance/index.js';
import { hashAnswer } from '../recovery/index.js';
import { toProfile } from './presenter.js';
import { profileRepository } from './repository.js';
import { isUniqueViolation } from '../../../db/dialect.js';
import { loadSharp } from '../../content/photos/index.js';

/** Formats sharp may decode for a profile picture (no SVG: it is a document, not a photo). */
const IMAGE_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff']);

export function avatarKeyPattern(accountId: string): RegExp {
  return new RegExp(`^avatars/${accountId.replace(/[^\w-]/g, '')}/avatar_\\d+\\.jpg$`);
}

/** The storage key behind a photoURL of ours, or null (external or legacy URLs). */
function keyOfPhoto(photoURL: string | null, accountId: string): string | null {
  if (!photoURL?.startsWith('/api/files/')) return null;
  try {
    const key = photoURL.slice('/api/files/'.length).split('/').map(decodeURIComponent).join('/');
    return avatarKeyPattern(accountId).test(key) ? key : null;
  } catch {
    return null;
  }
}

/** How long an uploaded picture waits for its form's Save before it is removed. */
export const STAGED_AVATAR_TTL_MS = 24 * 60 * 60_000;

type Comparable = Pick<Profile, 'fullname' | 'email' | 'contactNo' | 'securityQuestion' | 'photoURL'>;
const FIELDS = ['fullname', 'email', 'contactNo', 'securityQuestion', 'photoURL'] as const;

export function createProfileService(ctx: AppContext) {
  const { db, storage } = ctx;
  const confirmIdentity = identityCheck(ctx);

  async function current(auth: AuthContext) {
    const row = await profileRepository.findById(db, auth.user.id);
    if (!row || row.isDeleted) fail('NOT_FOUND');
    return row;
  }

  return {
    async get(auth: AuthContext): Promise<Profile> {
      return toProfile(await current(auth));
    },

    /**
     * Account Settings save (docs/PRODUCT.md sections 4, 5 and 7): fullname, email, contactNo, the
     * security question and answer, and the staged picture, in one transaction with its
     * audit entry; the header of the user's other tabs follows through the live event.
     */
    async update(auth: AuthContext, input: ProfileUpdateInput): Promise<Profile> {
      const row = await current(auth);
      if (input.version !== undefined && input.version !== row.version) {
        fail('VERSION_CONFLICT', undefined, undefined, { current: toProfile(row), currentVersion: row.version });
      }

      const email = input.email === '' ? null : input.email;
      const normalizedEmail = email ? normalizeIdentity(email) : null;
      if (normalizedEmail && normalizedEmail !== row.normalizedEmail && (await profileRepository.emailOwner(db, normalizedEmail, row.id))) {
        invalid({ email: SETTINGS.emailTaken });
      }

      // The question must come from the option list, unless it is the one already on the account.
      const question = input.securityQuestion === '' ? null : input.securityQuestion;
      if (question && question !== row.securityQuestion) {
        const { securityQuestions } = await getAccountEnums(db);
        if (!securityQuestions.includes(question)) invalid({ securityQuestion: SETTINGS.unknownQuestion });
      }

      let securityAnswer = row.securityAnswer;
      let answerChanged = false;
      if (!question) {
        answerChanged = Boolean(row.securityAnswer);
        securityAnswer = null;
      } else if (input.securityAnswer !== '') {
        // A typed answer is a change, even when it matches the stored one: comparing the two
        // here would tell a signed-in session whether a guess is right without the password.
        answerChanged = true;
      } else {
        // keepAnswer: only for the same question with an answer on file (the schema already
        // refused a blank answer without keepAnswer).
        if (question !== row.securityQuestion || !row.securityAnswer || row.securityAnswer.trim() === '') {
          invalid({ securityAnswer: SETTINGS.answerRequired });
        }
        // Existing plain answers are hashed on first use.
        if (!row.securityAnswer.startsWith('$2')) securityAnswer = await hashAnswer(row.securityAnswer);
      }

      let photoURL = row.photoURL;
      if (input.avatarKey) {
        if (!avatarKeyPattern(row.id).test(input.avatarKey) || !(await storage.stat(input.avatarKey))) {
          invalid({ avatar: SETTINGS.invalidImage });
        }
        photoURL = fileUrl(input.avatarKey);
      }

      const before: Comparable = {
        fullname: row.fullname,
        email: row.email,
        contactNo: row.contactNo,
        securityQuestion: row.securityQuestion,
        photoURL: row.photoURL,
      };
      const after: Comparable = {
        fullname: input.fullname,
        email,
        contactNo: input.contactNo === '' ? null : input.contactNo,
        securityQuestion: question,
        photoURL,
      };
      const changed = FIELDS.filter((f) => before[f] !== after[f]);
      const rehashOnly = !answerChanged && securityAnswer !== row.securityAnswer;
      if (changed.length === 0 && !answerChanged && !rehashOnly) return toProfile(row);
      // The email and the security question and answer are the ways back into the account:
      // changing them needs the current password (and code), not just an open session.
      if (normalizedEmail !== row.normalizedEmail || question !== row.securityQuestion || answerChanged) {
        await confirmIdentity(auth, { password: input.currentPassword, code: input.code }, { password: 'currentPassword', code: 'code' });
      }
      if (question && input.securityAnswer !== '') securityAnswer = await hashAnswer(input.securityAnswer);

      const now = nowIso();
      try {
        await runCommand(ctx, auth.actor, async (trx, cmd) => {
          const updated = await profileRepository.update(trx, row.id, row.version, {
            ...after,
            normalizedEmail,
            securityAnswer,
            updatedAt: now,
          });
          assertUpdated(updated, await profileRepository.findById(trx, row.id), toProfile as never);
          if (input.avatarKey) await profileRepository.unstageAvatar(trx, input.avatarKey);
          if (normalizedEmail !== row.normalizedEmail) await voidEmailedLinks(trx, row.id, now);
          cmd.publish({ topic: 'accounts', id: row.id, op: 'update' });
          if (changed.length === 0 && !answerChanged) return; // only a legacy answer re-hashed
          const pick = (p: Comparable) => Object.fromEntries(changed.map((f) => [f, p[f]]));
          const what = [...changed, ...(answerChanged ? ['securityAnswer'] : [])];
          await cmd.audit({
            action: 'UPDATE',
            collection: 'accounts',
            documentId: row.id,
            documentName: after.fullname,
            description: `Updated own account settings: ${what.join(', ')}`,
            changes: { before: pick(before), after: pick(after) },
            ...(answerChanged ? { details: { securityAnswerChanged: true } } : {}),
          });
        });
      } catch (err) {
        if (!(err instanceof AppError) && isUniqueViolation(err)) invalid({ email: SETTINGS.emailTaken });
        throw err;
      }

      // The replaced picture of ours is no longer referenced.
      const oldKey = keyOfPhoto(row.photoURL, row.id);
      if (oldKey && photoURL !== row.photoURL) await storage.delete(oldKey).catch(() => undefined);
      const fresh = await profileRepository.findById(db, row.id);
      return toProfile(fresh!);
    },

    /**
     * The picture the browser cropped and compressed: checked to be an image, re-encoded
     * (metadata stripped, at most 512 px, JPEG) and stored at avatars/{id}/avatar_{timestamp}.jpg.
     * It becomes the account's photoURL when the form is saved.
     */
    async uploadAvatar(auth: AuthContext, body: Buffer): Promise<{ avatarKey: string; previewURL: string }> {
      let jpeg: Buffer;
      try {
        const sharp = await loadSharp();
        const meta = await sharp(body, { limitInputPixels: AVATAR.maxInputPixels }).metadata();
        if (!meta.format || !IMAGE_FORMATS.has(meta.format)) invalid({ avatar: SETTINGS.invalidImage });
        jpeg = await sharp(body, { limitInputPixels: AVATAR.maxInputPixels })
          .rotate()
          .resize({ width: AVATAR.maxSide, height: AVATAR.maxSide, fit: 'inside', withoutEnlargement: true })
          .flatten({ background: '#ffffff' })
          .jpeg({ quality: Math.round(AVATAR.startQuality * 100), mozjpeg: true })
          .toBuffer();
      } catch (err) {
        if (err instanceof AppError) throw err;
        invalid({ avatar: SETTINGS.invalidImage });
      }
      let stamp = Date.now();
      let key = `avatars/${auth.user.id}/avatar_${stamp}.jpg`;
      while (await storage.stat(key)) key = `avatars/${auth.user.id}/avatar_${++stamp}.jpg`;
      await profileRepository.stageAvatar(db, key, auth.user.id, nowIso());
      await storage.put(key, jpeg);
      return { avatarKey: key, previewURL: fileUrl(key) };
    },

    /** Pictures uploaded and never saved (the dialog closed without Save): files and rows removed after a day. */
    async sweepStagedAvatars(now = Date.now()): Promise<number> {
      let removed = 0;
      for (;;) {
        const stale = await profileRepository.staleAvatars(db, new Date(now - STAGED_AVATAR_TTL_MS).toISOString(), 100);
        for (const { key } of stale) {
          await storage.delete(key);
          await profileRepository.unstageAvatar(db, key);
        }
        removed += stale.length;
        if (stale.length < 100) return removed;
      }
    },
  };
}
