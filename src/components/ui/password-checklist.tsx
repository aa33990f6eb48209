import { Check, X } from 'lucide-react';
import { PASSWORD_RULES } from '../../../common/password';
import { cn } from './cn';

/** The live password checklist of docs/PRODUCT.md section 5; the server enforces the same rules. */
export function PasswordChecklist({ password, className }: { password: string; className?: string }) {
  return (
    <ul
      className={cn('grid grid-cols-1 gap-1 text-sm sm:grid-cols-2', className)}
      aria-label="Password requirements"
      data-testid="password-checklist"
    >
      {PASSWORD_RULES.map((rule) => {
        const ok = rule.test(password);
        return (
          <li key={rule.id} className={cn('flex items-center gap-1.5', ok ? 'text-green-700' : 'text-slate-500')} data-met={ok}>
            {ok ? <Check className="h-4 w-4" aria-hidden /> : <X className="h-4 w-4 text-slate-400" aria-hidden />}
            <span>{rule.label}</span>
          </li>
        );
      })}
    </ul>
  );
}
