import { useId } from 'react';
import { ShieldCheck } from 'lucide-react';
import { can } from '../../../common/permissions';
import { REVIEW_TEXTS } from '../../../common/review';
import { REVIEW_SCREEN } from '../../../common/review-screen-texts';
import type { ReviewSettings } from '../../../common/schemas/review';
import { cn } from '../../components/ui/cn';
import { useToast } from '../../components/ui/toast';
import { manilaDateTime } from '../../../common/manila-time';
import { useReviewSettings, useSetReviewSetting } from '../../lib/review';
import { useSession } from '../../lib/session';

type Setting = ReviewSettings['items'][number];

/** One collection's switch; what it does is said once above the list (`labelId`, `helpId`), and read out with each. */
function SettingSwitch({
  setting,
  busy,
  onChange,
  labelId,
  helpId,
}: {
  setting: Setting;
  busy: boolean;
  onChange(enabled: boolean): void;
  labelId: string;
  helpId: string;
}) {
  const id = useId();
  return (
    <li className="flex items-start justify-between gap-4 py-4" data-testid={`review-setting-${setting.collection}`}>
      <div className="min-w-0">
        <p className="font-semibold text-slate-900" id={`${id}-name`}>
          {setting.label}
        </p>
        {setting.updatedAt && setting.updatedByName && (
          <p className="mt-0.5 text-xs text-slate-500">
            {REVIEW_SCREEN.settingChanged(setting.updatedByName, manilaDateTime(new Date(setting.updatedAt)))}
          </p>
        )}
      </div>
      <button
        type="button"
        role="switch"
        aria-checked={setting.enabled}
        aria-labelledby={`${id}-name ${labelId}`}
        aria-describedby={helpId}
        disabled={busy}
        onClick={() => onChange(!setting.enabled)}
        className={cn(
          'relative mt-1 inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors ' +
            'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 ' +
            'focus-visible:ring-offset-2 disabled:opacity-60',
          setting.enabled ? 'bg-brand-700' : 'bg-slate-400',
        )}
      >
        <span
          aria-hidden
          className={cn(
            'inline-block h-5 w-5 rounded-full bg-white shadow transition-transform',
            setting.enabled ? 'translate-x-5' : 'translate-x-0.5',
          )}
        />
      </button>
    </li>
  );
}

/** File Maintenance: per collection, whether its changes wait for review (super admins: review.settings). */
export function ReviewSettingsSection() {
  const { session } = useSession();
  const allowed = can(session?.user.role, 'review.settings');
  const settings = useReviewSettings(allowed);
  const save = useSetReviewSetting();
  const toast = useToast();
  const labelId = useId();
  const helpId = useId();
  if (!allowed) return null;

  async function change(setting: Setting, enabled: boolean) {
    try {
      await save.mutateAsync({ collection: setting.collection, enabled });
      toast.show(enabled ? REVIEW_TEXTS.settingOn(setting.label) : REVIEW_TEXTS.settingOff(setting.label));
    } catch (err) {
      toast.show(err instanceof Error ? err.message : String(err), { tone: 'error' });
    }
  }

  return (
    <section aria-labelledby="review-settings-title" className="mt-8 max-w-5xl rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="review-settings-title" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        <ShieldCheck className="h-5 w-5 text-brand-700" aria-hidden />
        {REVIEW_SCREEN.settingsTitle}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{REVIEW_SCREEN.settingsIntro}</p>
      <div className="mt-3 rounded-lg bg-slate-50 px-3 py-2">
        <p className="text-sm font-medium text-slate-800" id={labelId}>
          {REVIEW_TEXTS.setting}
        </p>
        <p className="mt-0.5 text-xs text-slate-600" id={helpId}>
          {REVIEW_TEXTS.settingHelp}
        </p>
      </div>
      {settings.isError && (
        <p role="alert" className="mt-3 text-sm text-red-600">
          {settings.error.message}
        </p>
      )}
      <ul className="divide-y divide-slate-100">
        {(settings.data?.items ?? []).map((setting) => (
          <SettingSwitch
            key={setting.collection}
            setting={setting}
            busy={save.isPending}
            onChange={(enabled) => void change(setting, enabled)}
            labelId={labelId}
            helpId={helpId}
          />
        ))}
      </ul>
    </section>
  );
}
