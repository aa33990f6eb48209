import { useId, useRef, useState } from 'react';
import { Copy, MailCheck } from 'lucide-react';
import { ACCOUNTS } from '../../../common/accounts';
import { manilaShortDate, manilaTime } from '../../../common/manila-time';
import type { InvitationResult } from '../../../common/schemas/accounts';
import { Button } from '../../components/ui/button';

const I = ACCOUNTS.invite;

/**
 * After Add New Admin with an invitation: where the link went, or the link itself, shown only
 * here (the server keeps its hash alone), with a Copy button.
 */
export function InvitationSent({ result }: { result: InvitationResult }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const at = new Date(result.expiresAt);
  const until = `${manilaShortDate(at)} ${manilaTime(at)}`;
  const name = result.account.fullname;

  if (result.delivery === 'email' || !result.link) {
    return (
      <p role="status" className="flex gap-3 rounded-lg bg-green-50 p-4 text-sm text-green-900" data-testid="invitation-sent">
        <MailCheck className="h-5 w-5 shrink-0" aria-hidden />
        <span>{I.sentBody(name, result.sentTo ?? '', until)}</span>
      </p>
    );
  }

  async function copy() {
    input.current?.select();
    try {
      await navigator.clipboard.writeText(result.link!);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  }

  return (
    <div className="space-y-3 text-sm" data-testid="invitation-link">
      <p role="status" className={result.mailFailed ? 'text-amber-800' : 'text-slate-700'}>
        {result.mailFailed ? I.mailFailedBody(name, until) : I.linkBody(name, until)}
      </p>
      <div>
        <label htmlFor={id} className="mb-1 block font-medium text-slate-700">
          {I.linkLabel}
        </label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <input
            ref={input}
            id={id}
            readOnly
            value={result.link}
            onFocus={(e) => e.currentTarget.select()}
            className="block h-10 w-full min-w-0 rounded-lg border border-slate-300 bg-slate-50 px-3 font-mono text-xs text-slate-800"
          />
          <Button variant="secondary" onClick={() => void copy()} className="shrink-0">
            <Copy className="h-4 w-4" aria-hidden /> {I.copy}
          </Button>
        </div>
        {copied && (
          <p role="status" className={copied === 'yes' ? 'mt-1 text-green-700' : 'mt-1 text-amber-800'}>
            {copied === 'yes' ? I.copied : I.copyFailed}
          </p>
        )}
      </div>
    </div>
  );
}
