import { useId, useMemo, useState } from 'react';
import { MODEL_TEXTS as T } from '../../../common/models';
import { MODEL_SCREEN_TEXTS as S } from '../../../common/model-screen-texts';
import type { ScannerModel } from '../../../common/schemas/models';
import { Button } from '../../components/ui/button';
import { ConflictDialog } from '../../components/ui/conflict-dialog';
import { Dialog } from '../../components/ui/dialog';
import { Form, applyServerErrors, useKeepTouchedFields, useZodForm } from '../../components/ui/form';
import { Spinner } from '../../components/ui/spinner';
import { useToast } from '../../components/ui/toast';
import { ApiError } from '../../lib/api';
import { useRecordOptions, useSaveMapping, useSaveSettings } from './api';
import { ContractFields, contractOf, settingsFormSchema, settingsValues, type SettingsFormValues } from './contract-fields';
import { MappingTable, mappingProblems, type LabelTarget } from './mapping-table';

const isConflict = (err: unknown) => err instanceof ApiError && err.status === 409;
const targetsOf = (model: ScannerModel): LabelTarget[] => {
  const targets: LabelTarget[] = Array.from({ length: model.labels.length }, () => ({ recordId: null, verdict: null }));
  for (const l of model.labels) targets[l.index] = { recordId: l.recordId, verdict: l.verdict };
  return targets;
};

/**
 * The label mapping of a stored model. `model` follows the server live; the version edited moves
 * only when the user reloads a newer one after a conflict (the rows they changed stay theirs).
 */
export function MappingDialog({ model, onClose }: { model: ScannerModel; onClose(): void }) {
  const toast = useToast();
  const records = useRecordOptions(model.stage === 'disease');
  const save = useSaveMapping();
  const [base, setBase] = useState(model.recordVersion);
  const [value, setValue] = useState(() => targetsOf(model));
  const [changed, setChanged] = useState<Set<number>>(new Set());
  const [conflict, setConflict] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const rows = model.labels.map((l) => ({ index: l.index, label: l.label, matchedBy: null, staleName: l.live ? null : l.recordName }));
  const choices = records.data ?? [];

  async function persist(version: number) {
    const problems = mappingProblems(model.stage, rows, value, choices);
    if (problems.length > 0) {
      setError(problems.join(' '));
      return;
    }
    setError(null);
    try {
      await save.mutateAsync({ id: model.id, version, mapping: value });
      toast.show(S.mapping.saved);
      onClose();
    } catch (err) {
      if (isConflict(err)) setConflict(true);
      else setError((err as Error).message);
    }
  }

  function reload() {
    const theirs = targetsOf(model);
    setValue((mine) => theirs.map((t, i) => (changed.has(i) ? (mine[i] ?? t) : t)));
    setBase(model.recordVersion);
    setConflict(false);
  }

  const loading = model.stage === 'disease' && records.isPending;
  return (
    <>
      <Dialog
        open
        onOpenChange={(o) => {
          if (!o && !save.isPending) onClose();
        }}
        title={S.mapping.title(model.version)}
        description={S.mapping.intro}
        size="lg"
        footer={
          <>
            <Button variant="secondary" onClick={onClose} disabled={save.isPending}>
              {T.cancel}
            </Button>
            <Button onClick={() => void persist(base)} disabled={save.isPending || loading}>
              {save.isPending ? S.saving : S.save}
            </Button>
          </>
        }
      >
        {loading ? (
          <div className="flex items-center gap-3 text-sm text-slate-600">
            <Spinner />
            <span>{S.mapping.loadingRecords}</span>
          </div>
        ) : (
          <div className="space-y-3">
            {records.isError && (
              <p role="alert" className="text-sm text-red-700">
                {records.error.message}
              </p>
            )}
            {error && (
              <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
                {error}
              </p>
            )}
            <MappingTable
              stage={model.stage}
              rows={rows}
              records={choices}
              value={value}
              disabled={save.isPending}
              onChange={(index, target) => {
                setValue((v) => v.map((t, i) => (i === index ? target : t)));
                setChanged((c) => new Set(c).add(index));
              }}
            />
          </div>
        )}
      </Dialog>
      <ConflictDialog
        open={conflict}
        onOpenChange={setConflict}
        onReload={reload}
        onOverwrite={() => {
          setConflict(false);
          void persist(model.recordVersion);
        }}
      />
    </>
  );
}

/** The pixel contract, thresholds and note of a stored model, with the same conflict handling. */
export function SettingsDialog({ model, onClose }: { model: ScannerModel; onClose(): void }) {
  const formId = useId();
  const toast = useToast();
  const save = useSaveSettings();
  const [base, setBase] = useState(model.recordVersion);
  const [conflict, setConflict] = useState<SettingsFormValues | null>(null);
  const [error, setError] = useState<string | null>(null);
  const form = useZodForm(settingsFormSchema, { defaultValues: settingsValues(model) });
  // Someone else's save shows in the fields this user has not touched.
  const serverValues = useMemo(() => settingsValues(model), [model.recordVersion]); // eslint-disable-line react-hooks/exhaustive-deps
  useKeepTouchedFields(form as never, serverValues);

  async function persist(values: SettingsFormValues, version: number) {
    setError(null);
    try {
      await save.mutateAsync({ id: model.id, version, ...contractOf(values) });
      toast.show(S.settings.saved);
      onClose();
    } catch (err) {
      if (isConflict(err)) {
        setConflict(values);
        return;
      }
      if (!applyServerErrors(form as never, err)) setError((err as Error).message);
    }
  }

  return (
    <>
      <Dialog
        open
        onOpenChange={(o) => {
          if (!o && !save.isPending) onClose();
        }}
        title={S.settings.title(model.version)}
        size="lg"
        footer={
          <>
            <Button variant="secondary" onClick={onClose} disabled={save.isPending}>
              {T.cancel}
            </Button>
            <Button type="submit" form={formId} disabled={save.isPending}>
              {save.isPending ? S.saving : S.save}
            </Button>
          </>
        }
      >
        <Form form={form} id={formId} onSubmit={(values) => persist(values, base)} className="space-y-4">
          <ContractFields disabled={save.isPending} />
          {error && (
            <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
              {error}
            </p>
          )}
        </Form>
      </Dialog>
      <ConflictDialog
        open={conflict !== null}
        onOpenChange={(o) => {
          if (!o) setConflict(null);
        }}
        onReload={() => {
          setBase(model.recordVersion);
          form.reset(settingsValues(model), { keepDirtyValues: true });
          setConflict(null);
        }}
        onOverwrite={() => {
          const values = conflict;
          setConflict(null);
          if (values) void persist(values, model.recordVersion);
        }}
      />
    </>
  );
}
