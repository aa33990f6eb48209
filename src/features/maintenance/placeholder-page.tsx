import { useNavigate } from 'react-router';
import { ArrowLeft, Construction } from 'lucide-react';
import { MAINTENANCE } from '../../../common/maintenance';
import { Button } from '../../components/ui/button';
import { PageHeader } from '../../components/ui/page-header';

/** Pest and Rice Disease have no option lists yet (docs/PRODUCT.md section 2: a placeholder). */
export function PlaceholderPage({ title }: { title: string }) {
  const navigate = useNavigate();
  return (
    <div>
      <Button variant="ghost" size="sm" className="-ml-2 mb-3" onClick={() => navigate('/dashboard/file_maintenance')}>
        <ArrowLeft className="h-4 w-4" aria-hidden />
        {MAINTENANCE.back}
      </Button>
      <PageHeader title={title} />
      <div className="flex flex-col items-center justify-center rounded-2xl border border-dashed border-slate-300 bg-white p-12 text-center text-slate-500">
        <Construction className="mb-3 h-10 w-10 text-amber-500" aria-hidden />
        <p>{MAINTENANCE.placeholder}</p>
      </div>
    </div>
  );
}
