import { useEffect, useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Area } from 'react-easy-crop';
import { Camera, Mail, Undo2 } from 'lucide-react';
import { can } from '../../../common/permissions';
import { profileFormSchema, type Profile, type ProfileFormInput, type ProfileFormValues } from '../../../common/schemas/profile';
import { SETTINGS } from '../../../common/profile';
import { SESSIONS } from '../../../common/sessions';
import { SessionsList } from '../../components/sessions/sessions-list';
import { Avatar } from '../../components/ui/avatar';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { Form, TextField, applyServerErrors, useKeepTouchedFields, useZodForm } from '../../components/ui/form';
import { Spinner } from '../../components/ui/spinner';
import { useToast } from '../../components/ui/toast';
import { ApiError } from '../../lib/api';
import { useOptionLists } from '../../lib/option-lists';
import { useSession } from '../../lib/session';
import { profileKey, saveProfile, securityQuestionsOf, sendResetEmail, uploadAvatar, useProfile } from './api';
import { CropDialog } from './crop-dialog';
import { IdentityFields } from './identity-fields';
import { compressAvatar, cropImage, ImageFlowError, readImageFile } from './image';
import { QuestionSelect } from './question-select';
import { ChangePasswordSection } from './change-password-section';
import { SecondFactorSection } from './second-factor-section';

const FORM_ID = 'account-settings-form';

function toForm(p: Profile): ProfileFormInput {
  return {
    fullname: p.fullname,
    email: p.email ?? '',
    contactNo: p.contactNo ?? '',
    securityQuestion: p.securityQuestion ?? '',
    securityAnswer: '',
    keepAnswer: p.hasSecurityAnswer && Boolean(p.securityQuestion),
    currentPassword: '',
    code: '',
  };
}

/** Account Settings (docs/PRODUCT.md section 2). Escape or a backdrop click closes it; Escape closes the crop dialog first. */
export function AccountSettingsModal({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  return open ? <SettingsDialog onClose={() => onOpenChange(false)} /> : null;
}

function SettingsDialog({ onClose }: { onClose(): void }) {
  const { session, refresh } = useSession();
  const queryClient = useQueryClient();
  const toast = useToast();
  const profile = useProfile(true);
  const questions = useOptionLists(securityQuestionsOf);
  const serverValues = useMemo(() => (profile.data ? toForm(profile.data) : undefined), [profile.data]);
  // Opened again, the cached profile fills the form at once; a newer one merges in later.
  const form = useZodForm(profileFormSchema, {
    defaultValues: serverValues ?? {
      fullname: '',
      email: '',
      contactNo: '',
      securityQuestion: '',
      securityAnswer: '',
      keepAnswer: false,
      currentPassword: '',
      code: '',
    },
  });
  useKeepTouchedFields(form, serverValues);

  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [cropSrc, setCropSrc] = useState<string | null>(null);
  const [cropping, setCropping] = useState(false);
  const [pending, setPending] = useState<{ blob: Blob; url: string } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  // Object URLs are released when replaced and when the modal closes.
  useEffect(
    () => () => {
      if (pending) URL.revokeObjectURL(pending.url);
    },
    [pending],
  );
  useEffect(
    () => () => {
      if (cropSrc) URL.revokeObjectURL(cropSrc);
    },
    [cropSrc],
  );

  // The answer input is disabled until a question is chosen; the stored answer is kept while the
  // question is the account's own and the answer is left blank.
  const question = form.watch('securityQuestion') ?? '';
  const stored = profile.data;
  useEffect(() => {
    const keep = question !== '' && question === stored?.securityQuestion && Boolean(stored?.hasSecurityAnswer);
    form.setValue('keepAnswer', keep);
    if (question === '') form.setValue('securityAnswer', '');
  }, [form, question, stored?.securityQuestion, stored?.hasSecurityAnswer]);
  const keepingAnswer = question !== '' && question === stored?.securityQuestion && Boolean(stored?.hasSecurityAnswer);

  async function onFileChosen(file: File | undefined) {
    if (fileInput.current) fileInput.current.value = '';
    if (!file) return;
    setError(null);
    try {
      setCropSrc(await readImageFile(file));
    } catch (err) {
      setError(err instanceof ImageFlowError ? err.message : SETTINGS.readFailed);
    }
  }

  async function onCropApplied(area: Area) {
    if (!cropSrc) return;
    setCropping(true);
    try {
      const cropped = await cropImage(cropSrc, area);
      const blob = await compressAvatar(cropped);
      setPending({ blob, url: URL.createObjectURL(blob) });
      setCropSrc(null);
    } catch (err) {
      setError(err instanceof ImageFlowError ? err.message : SETTINGS.cropFailed);
      setCropSrc(null);
    } finally {
      setCropping(false);
    }
  }

  async function onSubmit(values: ProfileFormValues) {
    if (!session || !profile.data) {
      setError(SETTINGS.noUserId);
      return;
    }
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const avatarKey = pending ? (await uploadAvatar(pending.blob)).avatarKey : undefined;
      const saved = await saveProfile({ ...values, ...(avatarKey ? { avatarKey } : {}), version: profile.data.version });
      queryClient.setQueryData(profileKey, saved);
      await refresh();
      toast.show(SETTINGS.saved);
      onClose();
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.code === 'VERSION_CONFLICT' && err.body?.current) {
        // Someone (another tab, or a super admin) saved first: take their values, keep the user's edits.
        queryClient.setQueryData(profileKey, err.body.current as Profile);
        setError(SETTINGS.changedElsewhere);
      } else if (err instanceof ApiError && err.fields.avatar) {
        setPending(null);
        setError(err.fields.avatar);
      } else if (applyServerErrors(form as never, err)) {
        setError(null);
      } else {
        setError(err instanceof ApiError && err.code !== 'INTERNAL' ? err.message : SETTINGS.saveFailed);
      }
    }
  }

  async function onSendResetEmail() {
    setError(null);
    setNotice(null);
    if (!profile.data?.email) {
      setError(SETTINGS.noEmail);
      return;
    }
    setSending(true);
    try {
      const { sentTo } = await sendResetEmail();
      setNotice(SETTINGS.resetEmailSent(sentTo));
    } catch (err) {
      setError(err instanceof ApiError && err.code !== 'INTERNAL' ? err.message : SETTINGS.sendFailed);
    } finally {
      setSending(false);
    }
  }

  const name = form.watch('fullname') || session?.user.fullname || '';
  const photo = pending?.url ?? profile.data?.photoURL ?? null;

  return (
    <>
      <Dialog
        open
        onOpenChange={(o) => {
          if (!o && !busy) onClose();
        }}
        title={SETTINGS.title}
        size="lg"
        footer={
          <>
            <Button variant="secondary" onClick={onClose} disabled={busy}>
              {SETTINGS.cancel}
            </Button>
            <Button type="submit" form={FORM_ID} disabled={busy || !profile.data}>
              {busy ? SETTINGS.saving : SETTINGS.save}
            </Button>
          </>
        }
      >
        {!profile.data ? (
          profile.isError ? (
            <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
              {SETTINGS.saveFailed}
            </p>
          ) : (
            <div className="flex items-center gap-3 py-10 text-sm text-slate-500">
              <Spinner /> {SETTINGS.loading}
            </div>
          )
        ) : (
          <>
            <Form id={FORM_ID} form={form} onSubmit={onSubmit} className="space-y-6">
              <section>
                <h3 id="settings-personal" className="text-xs font-semibold uppercase tracking-wider text-slate-500">
                  {SETTINGS.personalInfo}
                </h3>
                <div className="mt-3 flex flex-col gap-6 sm:flex-row">
                  <div className="flex shrink-0 flex-col items-center gap-2 sm:w-44">
                    <div className="rounded-full p-1 ring-2 ring-brand-100">
                      <Avatar name={name} photoURL={photo} className="h-24 w-24 text-2xl" />
                    </div>
                    <input
                      ref={fileInput}
                      type="file"
                      accept="image/*,.heic,.heif"
                      className="sr-only"
                      tabIndex={-1}
                      aria-label={SETTINGS.profilePicture}
                      data-testid="avatar-file"
                      onChange={(e) => void onFileChosen(e.target.files?.[0])}
                    />
                    <Button variant="secondary" size="sm" onClick={() => fileInput.current?.click()} disabled={busy}>
                      <Camera className="h-4 w-4" aria-hidden /> {photo ? SETTINGS.changePhoto : SETTINGS.choosePhoto}
                    </Button>
                    {pending ? (
                      <>
                        <p className="text-center text-xs text-brand-700" data-testid="avatar-pending">
                          {SETTINGS.newPhotoPending}
                        </p>
                        <button
                          type="button"
                          className="inline-flex items-center gap-1 text-xs font-medium text-slate-500 hover:text-slate-700 hover:underline"
                          onClick={() => setPending(null)}
                        >
                          <Undo2 className="h-3 w-3" aria-hidden /> {SETTINGS.removeNewPhoto}
                        </button>
                      </>
                    ) : (
                      <p className="text-center text-xs text-slate-500">{SETTINGS.photoHint}</p>
                    )}
                  </div>
                  <div className="grid flex-1 content-start gap-4 sm:grid-cols-2">
                    <TextField name="fullname" label={SETTINGS.fullname} autoComplete="name" className="sm:col-span-2" />
                    <TextField name="email" label={SETTINGS.email} type="email" autoComplete="email" />
                    <TextField
                      name="contactNo"
                      label={SETTINGS.contactNo}
                      placeholder={SETTINGS.contactPlaceholder}
                      inputMode="tel"
                      autoComplete="tel"
                    />
                  </div>
                </div>
              </section>

              <section className="border-t border-slate-100 pt-5">
                <h3 id="settings-security" className="text-xs font-semibold uppercase tracking-wider text-slate-500">
                  {SETTINGS.securitySection}
                </h3>
                <div className="mt-3 grid gap-4 sm:grid-cols-2">
                  <QuestionSelect
                    name="securityQuestion"
                    label={SETTINGS.question}
                    placeholder={SETTINGS.questionPlaceholder}
                    questions={questions.data ?? []}
                    current={profile.data.securityQuestion}
                    disabled={questions.isLoading}
                  />
                  <TextField
                    name="securityAnswer"
                    label={SETTINGS.answer}
                    autoComplete="off"
                    disabled={question === ''}
                    placeholder={
                      question === ''
                        ? SETTINGS.answerDisabledPlaceholder
                        : keepingAnswer
                          ? SETTINGS.answerKeepPlaceholder
                          : SETTINGS.answerPlaceholder
                    }
                    hint={question !== '' ? <p className="mt-1 text-xs text-slate-500">{SETTINGS.answerCaseHint}</p> : undefined}
                  />
                </div>
              </section>

              <IdentityFields form={form} stored={profile.data} mayHaveSecondFactor={can(session?.user.role, 'secondFactor.manageOwn')} />

              <section className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-slate-50 p-4 sm:flex-row sm:items-center sm:justify-between">
                <div className="text-sm text-slate-600">
                  <p className="font-medium text-slate-800">{SETTINGS.sendResetEmail}</p>
                  <p className="text-xs text-slate-500">{profile.data.email ?? '—'}</p>
                </div>
                <Button variant="secondary" size="sm" onClick={() => void onSendResetEmail()} disabled={sending || busy}>
                  <Mail className="h-4 w-4" aria-hidden /> {sending ? SETTINGS.sendingResetEmail : SETTINGS.sendResetEmail}
                </Button>
              </section>

              <section className="border-t border-slate-100 pt-5" aria-labelledby="settings-sessions">
                <h3 id="settings-sessions" className="text-xs font-semibold uppercase tracking-wider text-slate-500">
                  {SESSIONS.heading}
                </h3>
                <SessionsList scope={{ kind: 'own' }} />
              </section>

              {notice && (
                <p role="status" className="rounded-lg border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-800">
                  {notice}
                </p>
              )}
              {error && (
                <p
                  role="alert"
                  className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700"
                  data-testid="settings-error"
                >
                  {error}
                </p>
              )}
            </Form>
            {/* Outside the profile form: their own small forms. */}
            <div className="mt-6">
              <ChangePasswordSection disabled={busy} mayHaveSecondFactor={can(session?.user.role, 'secondFactor.manageOwn')} />
            </div>
            {/* Super admins only, refused by the server to others. */}
            {can(session?.user.role, 'secondFactor.manageOwn') && (
              <div className="mt-6">
                <SecondFactorSection disabled={busy} />
              </div>
            )}
          </>
        )}
      </Dialog>
      <CropDialog
        key={cropSrc ?? 'none'}
        image={cropSrc}
        busy={cropping}
        onCancel={() => setCropSrc(null)}
        onApply={(area) => void onCropApplied(area)}
      />
    </>
  );
}
