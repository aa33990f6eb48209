import { Link } from 'react-router';
import { ArrowRight } from 'lucide-react';
import { TRANSLATED_COLLECTIONS } from '../../../common/languages';
import { can } from '../../../common/permissions';
import { TRANSLATE_TEXTS } from '../../../common/translate-texts';
import { TRANSLATIONS_PATH } from '../../app/nav';
import { CompletenessBars } from '../../components/translations/completeness-bars';
import { Spinner } from '../../components/ui/spinner';
import { useCompleteness } from '../../lib/languages';
import { useSession } from '../../lib/session';

const T = TRANSLATE_TEXTS.completeness;

/** The farmers' languages on the dashboard: per language and collection, translated / needs update / missing, each count a link to its list. */
export function TranslationsSection() {
  const { session } = useSession();
  const completeness = useCompleteness();
  // Option values are File Maintenance's: shown to those who maintain them.
  const collections = TRANSLATED_COLLECTIONS.filter((c) => c !== 'maintenance' || can(session?.user.role, 'maintenance.manage'));
  return (
    <section
      className="mt-8 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
      aria-labelledby="translations-heading"
      data-testid="translations-completeness"
    >
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="translations-heading" className="text-lg font-semibold text-slate-900">
            {T.title}
          </h2>
          <p className="text-sm text-slate-500">{T.subtitle}</p>
        </div>
        <Link to={TRANSLATIONS_PATH} className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline">
          {T.open}
          <ArrowRight className="h-4 w-4" aria-hidden />
        </Link>
      </div>
      {completeness.data ? (
        <CompletenessBars
          data={completeness.data}
          collections={collections}
          link={(collection, lang, filter) => `${TRANSLATIONS_PATH}?${new URLSearchParams({ collection, lang, filter })}`}
        />
      ) : completeness.isError ? (
        <p role="alert" className="text-sm text-red-600">
          {completeness.error.message}
        </p>
      ) : (
        <Spinner />
      )}
    </section>
  );
}
