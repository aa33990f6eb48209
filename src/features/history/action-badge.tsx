import { cn } from '../../components/ui/cn';

const TONES: Record<string, string> = {
  CREATE: 'bg-green-100 text-green-800',
  UPDATE: 'bg-sky-100 text-sky-800',
  DELETE: 'bg-red-100 text-red-800',
  RESTRICT: 'bg-amber-100 text-amber-800',
  UNRESTRICT: 'bg-teal-100 text-teal-800',
  LOGIN: 'bg-violet-100 text-violet-800',
  RESTORE: 'bg-lime-100 text-lime-800',
  SIGN_OUT: 'bg-slate-200 text-slate-800',
  SECOND_FACTOR: 'bg-indigo-100 text-indigo-800',
  IMPORT: 'bg-emerald-100 text-emerald-800',
  RESTORE_VERSION: 'bg-orange-100 text-orange-800',
};

export function ActionBadge({ action }: { action: string }) {
  return (
    <span
      className={cn(
        'inline-flex rounded-full px-2 py-0.5 text-xs font-semibold',
        TONES[action.toUpperCase()] ?? 'bg-slate-100 text-slate-700',
      )}
    >
      {action}
    </span>
  );
}
