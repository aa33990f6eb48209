import { RECOVERY, RECOVERY_LIMITS } from '../../../../common/profile.js';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The message of Account Settings' password reset link, as text and HTML. */
export function resetEmail(to: string, fullname: string, link: string) {
  const minutes = Math.round(RECOVERY_LIMITS.emailLinkTtlMs / 60_000);
  const text = [
    `Hello ${fullname},`,
    '',
    'Someone (hopefully you) asked to reset the password of your PalaYan Admin account.',
    `Open this link within ${minutes} minutes to set a new password. It works once:`,
    '',
    link,
    '',
    'If you did not ask for this, ignore this email: your password stays as it is.',
  ].join('\n');
  const html = `<p>Hello ${escapeHtml(fullname)},</p>
<p>Someone (hopefully you) asked to reset the password of your PalaYan Admin account.</p>
<p>Open this link within ${minutes} minutes to set a new password. It works once:</p>
<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>
<p>If you did not ask for this, ignore this email: your password stays as it is.</p>`;
  return { to, subject: RECOVERY.emailSubject, text, html };
}
