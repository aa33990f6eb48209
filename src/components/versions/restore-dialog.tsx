import { useState } from 'react';
import type { VersionItem, VersionRestoreResult } from '../../../common/schemas/versions';
import { VERSION_FIELDS, VERSION_TEXTS as T, type VersionCollection } from '../../../common/versions';
import { ApiError } from '../../lib/api';
import { useRestoreVersion } from '../../lib/versions';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { useToast } from '../ui/toast';
import { useSentForReview } from '../review/use-sent-for-review';

type Replacement = string | string[] | null;

/** Fields the server refused, with the current values to choose from (option lists) or a text box. */
interface Refusal {
  fields: Record<string, string>;
  choices: Record<string, string[]>;
}

const ARRAY_FIELDS = new Set(['season', 'environment', 'affectedParts']);

function ChooseField({
  name,
  label,
  message,
  choices,
  value,
  onChange,
}: {
  name: string;
  label: string;
  message: string;
  choices: string[] | undefined;
  value: Replacement;
  onChange(v: Replacement): void;
}) {
  const id = `restore-${name}`;
  return (
    <fieldset className="space-y-1 rounded-lg border border-amber-300 bg-amber-50 p-3">
      <legend className="px-1 text-sm font-semibold text-slate-800">{label}</legend>
      <p id={`${id}-message`} className="text-sm text-amber-900">
        {message}
      </p>
      {choices && ARRAY_FIELDS.has(name) ? (
        <div className="flex flex-wrap gap-3 pt-1">
          {choices.map((choice) => {
            const list = Array.isArray(value) ? value : [];
            return (
              <label key={choice} className="inline-flex items-center gap-1.5 text-sm text-slate-800">
                <input
                  type="checkbox"
                  checked={list.includes(choice)}
                  onChange={(e) => onChange(e.target.checked ? [...list, choice] : list.filter((v) => v !== choice))}
                />
                {choice}
              </label>
            );
          })}
        </div>
      ) : choices ? (
        <select
          id={id}
          aria-label={label}
          aria-describedby={`${id}-message`}
          className="mt-1 h-9 w-full rounded-lg border border-slate-300 bg-white px-2 text-sm"
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.target.value)}
        >
          <option value="">{T.chooseCurrent}</option>
          {choices.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          aria-label={label}
          aria-describedby={`${id}-message`}
          className="mt-1 h-9 w-full rounded-lg border border-slate-300 bg-white px-2 text-sm"
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </fieldset>
  );
}

/** Restore this version: confirm, then choose current values for any the lists no longer hold. */
export function RestoreDialog({
  collection,
  id,
  version,
  recordVersion,
  onClose,
  onRestored,
}: {
  collection: VersionCollection;
  id: string;
  version: VersionItem | null;
  recordVersion: number;
  onClose(): void;
  onRestored(number: number): void;
}) {
  const restore = useRestoreVersion(collection, id);
  const toast = useToast();
  const sentForReview = useSentForReview();
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [values, setValues] = useState<Record<string, Replacement>>({});
  const [error, setError] = useState<string | null>(null);
  const labels = VERSION_FIELDS[collection];

  function close() {
    setRefusal(null);
    setValues({});
    setError(null);
    restore.reset();
    onClose();
  }

  async function confirm() {
    if (!version) return;
    setError(null);
    try {
      const saved = await restore.mutateAsync({ number: version.number, input: { version: recordVersion, replacements: values } });
      // Sent for review (202): no new version yet; closed as after a restore.
      if (sentForReview(saved)) {
        close();
        return;
      }
      const result = saved as VersionRestoreResult;
      toast.show(
        result.photosMissing > 0 ? `${T.restored(version.number)} ${T.photosMissing(result.photosMissing)}` : T.restored(version.number),
        { tone: 'success' },
      );
      close();
      onRestored(result.number);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'VALIDATION_FAILED' && Object.keys(err.fields).length > 0) {
        setRefusal({ fields: err.fields, choices: (err.body?.choices as Record<string, string[]> | undefined) ?? {} });
      } else {
        setError(err instanceof Error ? err.message : String(err));
      }
    }
  }

  const photoCount = version?.summary.photoCount ?? null;
  return (
    <Dialog
      open={version !== null}
      onOpenChange={(o) => {
        if (!o) close();
      }}
      title={version ? T.restoreTitle(version.number) : T.restore}
      size="md"
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            {T.cancel}
          </Button>
          <Button onClick={() => void confirm()} disabled={restore.isPending}>
            {restore.isPending ? T.restoring : T.restoreConfirm}
          </Button>
        </>
      }
    >
      <div className="space-y-3 text-sm text-slate-700">
        <p>{T.restoreText}</p>
        {photoCount !== null && <p>{T.restorePhotosText(photoCount)}</p>}
        {refusal &&
          Object.entries(refusal.fields).map(([name, message]) => (
            <ChooseField
              key={name}
              name={name}
              label={labels[name] ?? name}
              message={message}
              choices={refusal.choices[name]}
              value={values[name] ?? (ARRAY_FIELDS.has(name) ? [] : '')}
              onChange={(v) => setValues((prev) => ({ ...prev, [name]: v }))}
            />
          ))}
        {error && (
          <p role="alert" className="text-sm text-red-600">
            {error}
          </p>
        )}
      </div>
    </Dialog>
  );
}
