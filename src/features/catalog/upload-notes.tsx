import { useState } from 'react';
import { WifiOff } from 'lucide-react';
import { UPLOAD_TEXTS } from '../../../common/catalog-texts';
import { usePhotoSettings } from './api';
import type { UploadBatch } from './upload-batch';

/** Paused while the connection is lost (with the next try's countdown), and a word when it resumed. */
export function ConnectionNote({ batch, inProgress }: { batch: UploadBatch; inProgress: boolean }) {
  const { connection } = batch;
  if (connection.paused) {
    return (
      <p
        className="flex items-center gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800"
        role="status"
        data-testid="upload-paused"
      >
        <WifiOff className="h-4 w-4 shrink-0" aria-hidden />
        {UPLOAD_TEXTS.paused(connection.secondsLeft())}
      </p>
    );
  }
  if (connection.resumed && inProgress)
    return (
      <p className="text-sm text-brand-700" role="status" data-testid="upload-resumed">
        {UPLOAD_TEXTS.resumed}
      </p>
    );
  return null;
}

/** A super admin's "Keep originals" for this batch: photos are sent at full size, not made PHOTO_MAX_EDGE first. */
export function KeepOriginals({ batch, disabled }: { batch: UploadBatch; disabled?: boolean | undefined }) {
  const settings = usePhotoSettings();
  const [checked, setChecked] = useState(batch.keepOriginals);
  if (!settings.data?.canKeepOriginals || settings.data.maxEdge <= 0) return null;
  return (
    <label className="flex items-start gap-2 text-sm text-slate-700">
      <input
        type="checkbox"
        className="mt-0.5"
        checked={checked}
        disabled={disabled}
        data-testid="keep-originals"
        onChange={(e) => {
          batch.keepOriginals = e.target.checked;
          setChecked(e.target.checked);
        }}
      />
      <span>
        <span className="font-medium">{UPLOAD_TEXTS.keepOriginals}</span>
        <span className="block text-xs text-slate-500">{UPLOAD_TEXTS.keepOriginalsHint(settings.data.maxEdge)}</span>
      </span>
    </label>
  );
}
