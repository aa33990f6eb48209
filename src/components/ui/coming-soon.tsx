import { Construction } from 'lucide-react';
import { SHELL } from '../../../common/texts';
import { PageHeader } from './page-header';

/** What a screen shows until its feature is built. */
export function ComingSoon({ title }: { title: string }) {
  return (
    <div>
      <PageHeader title={title} />
      <div className="flex flex-col items-center justify-center rounded-2xl border border-dashed border-slate-300 bg-white p-12 text-center text-slate-500">
        <Construction className="mb-3 h-10 w-10 text-amber-500" aria-hidden />
        <p>{SHELL.comingSoon}</p>
      </div>
    </div>
  );
}
