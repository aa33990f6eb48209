import type { Transaction } from 'kysely';
import { INVITATION, INVITATION_TTL_MS } from '../../../../common/accounts.js';
import { manilaShortDate, manilaTime } from '../../../../common/manila-time.js';
import { linkOrigin, type Config } from '../../../config.js';
import type { Database } from '../../../db/types.js';
import { isoIn } from '../../../platform/support/clock.js';
import { randomToken, sha256 } from '../../../platform/identity/passwords.js';
import { credentialsRecords } from '../credentials/index.js';

/**
 * A new account's invitation: a random token, only its SHA-256 stored (password_reset_tokens,
 * purpose 'invitation'), used once within INVITATION_TTL_MS to set the first password. The
 * recovery module's invitation routes take it; a password set any other way voids it.
 */
export async function issueInvitation(
  trx: Transaction<Database>,
  accountId: string,
  now: number,
): Promise<{ token: string; expiresAt: string }> {
  const token = randomToken(32);
  const expiresAt = isoIn(INVITATION_TTL_MS, now);
  await credentialsRecords.insertToken(trx, {
    tokenHash: sha256(token),
    accountId,
    purpose: 'invitation',
    createdAt: new Date(now).toISOString(),
    expiresAt,
  });
  return { token, expiresAt };
}

/** The invitation page's address: the token rides in the fragment, which no server or proxy log sees. */
export function invitationLink(config: Pick<Config, 'publicUrl' | 'host' | 'port'>, token: string): string {
  return `${linkOrigin(config)}/invitation#token=${encodeURIComponent(token)}`;
}

/** When a link stops working, as staff read it (Manila time). */
export function untilText(iso: string): string {
  const d = new Date(iso);
  return `${manilaShortDate(d)} ${manilaTime(d)}`;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The invitation email, as text and HTML. */
export function invitationEmail(
  to: string,
  invitee: { fullname: string; username: string },
  inviter: string,
  link: string,
  expiresAt: string,
) {
  const lines = [
    `${inviter} made you an account in PalaYan Admin, with the username ${invitee.username}.`,
    `Open this link to choose your password. It works once, until ${untilText(expiresAt)}:`,
  ];
  const after = 'If you did not expect this, ignore this email: nobody can use the account without the link.';
  const text = [`Hello ${invitee.fullname},`, '', ...lines, '', link, '', after].join('\n');
  const html = `<p>Hello ${escapeHtml(invitee.fullname)},</p>
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>
<p>${escapeHtml(after)}</p>`;
  return { to, subject: INVITATION.emailSubject, text, html };
}
