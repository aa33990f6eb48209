import { useState } from 'react';
import { Copy, Download } from 'lucide-react';
import type { SecondFactorSetup } from '../../../common/schemas/second-factor';
import { SECOND_FACTOR } from '../../../common/second-factor';
import { Button } from './button';

/** The key to add to an authenticator app: its QR code (an SVG made by the server) and the key to type. */
export function TotpSetupView({ setup }: { setup: SecondFactorSetup }) {
  const grouped = setup.secret.replace(/(.{4})/g, '$1 ').trim();
  return (
    <div className="flex flex-col items-center gap-3 sm:flex-row sm:items-start">
      <img
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`}
        alt={SECOND_FACTOR.qrAlt}
        className="h-40 w-40 shrink-0 rounded-lg border border-slate-200 bg-white p-1"
        data-testid="totp-qr"
      />
      <div className="min-w-0 text-sm text-slate-600">
        <p className="font-medium text-slate-800">{SECOND_FACTOR.scanTitle}</p>
        <p className="mt-1 text-xs text-slate-500">{SECOND_FACTOR.scanHint}</p>
        <p className="mt-3 text-xs font-medium uppercase tracking-wider text-slate-500">{SECOND_FACTOR.manualKey}</p>
        <code
          className="mt-1 block break-words rounded-md bg-slate-100 px-2 py-1 font-mono text-sm text-slate-900"
          data-testid="totp-secret"
          data-secret={setup.secret}
        >
          {grouped}
        </code>
      </div>
    </div>
  );
}

/** The recovery codes, shown once, with copy and download. */
export function RecoveryCodesView({ codes }: { codes: string[] }) {
  const [copied, setCopied] = useState(false);
  const text = `${codes.join('\n')}\n`;
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      /* the codes stay on screen to copy by hand */
    }
  }
  function download() {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = SECOND_FACTOR.codesFileName;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
  return (
    <div>
      <p className="text-sm font-medium text-slate-800">{SECOND_FACTOR.codesTitle}</p>
      <p className="mt-1 text-xs text-slate-500">{SECOND_FACTOR.codesIntro}</p>
      <ol
        className="mt-3 grid grid-cols-2 gap-x-6 gap-y-1 rounded-lg border border-slate-200 bg-slate-50 px-4 py-3 font-mono text-sm text-slate-900"
        data-testid="recovery-codes"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="mt-2 flex items-center gap-2">
        <Button variant="secondary" size="sm" onClick={() => void copy()}>
          <Copy className="h-4 w-4" aria-hidden /> {SECOND_FACTOR.copy}
        </Button>
        <Button variant="secondary" size="sm" onClick={download}>
          <Download className="h-4 w-4" aria-hidden /> {SECOND_FACTOR.download}
        </Button>
        {copied && (
          <span role="status" className="text-xs text-green-700">
            {SECOND_FACTOR.copied}
          </span>
        )}
      </div>
    </div>
  );
}
