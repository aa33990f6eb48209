import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { CheckCircle2, AlertCircle, Info } from 'lucide-react';
import { TIMINGS } from '../../../common/limits';
import { cn } from './cn';

type Tone = 'success' | 'error' | 'info';
interface Toast {
  id: number;
  message: string;
  tone: Tone;
}
interface ToastApi {
  show(message: string, options?: { tone?: Tone; durationMs?: number }): void;
}

const ToastContext = createContext<ToastApi | null>(null);
let nextId = 1;

/** Short-lived notices (docs/PRODUCT.md: success 1 to 3 s, file maintenance about 1.8 s, variety delete about 1.2 s). */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const show = useCallback<ToastApi['show']>((message, options = {}) => {
    const id = nextId++;
    setToasts((t) => [...t, { id, message, tone: options.tone ?? 'success' }]);
    setTimeout(() => setToasts((t) => t.filter((x) => x.id !== id)), options.durationMs ?? TIMINGS.successToastMs);
  }, []);
  const api = useMemo(() => ({ show }), [show]);
  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className="pointer-events-none fixed right-4 top-4 z-[60] flex w-80 flex-col gap-2" aria-live="polite">
        {toasts.map((t) => {
          const Icon = t.tone === 'success' ? CheckCircle2 : t.tone === 'error' ? AlertCircle : Info;
          return (
            <div
              key={t.id}
              role="status"
              className={cn(
                'pointer-events-auto flex items-start gap-2 rounded-xl border px-4 py-3 text-sm shadow-lg',
                t.tone === 'success' && 'border-green-200 bg-green-50 text-green-800',
                t.tone === 'error' && 'border-red-200 bg-red-50 text-red-800',
                t.tone === 'info' && 'border-slate-200 bg-white text-slate-800',
              )}
            >
              <Icon className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
              <span>{t.message}</span>
            </div>
          );
        })}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): ToastApi {
  const ctx = useContext(ToastContext);
  if (!ctx) throw new Error('useToast must be used inside ToastProvider');
  return ctx;
}
