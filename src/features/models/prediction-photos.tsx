import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { Activity, ExternalLink } from 'lucide-react';
import { MODEL_SCREEN_TEXTS as S } from '../../../common/model-screen-texts';
import type { PredictionPhoto } from '../../../common/schemas/models';
import { Spinner } from '../../components/ui/spinner';
import { useEvaluationPhotos, type PhotoSelection } from './api';

// Where a photo's disease and the Dataset health screen are (src/features/catalog/routes.tsx).
const DISEASES = '/dashboard/rice_diseases';
const diseaseLink = (diseaseId: string) => `${DISEASES}?open=${encodeURIComponent(diseaseId)}`;
const HEALTH = `${DISEASES}/health`;
const smallLink =
  'inline-flex items-center gap-1 rounded text-xs font-medium text-brand-700 underline-offset-2 ' +
  'hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600';

/**
 * The photos of one matrix cell or changed verdict, as thumbnails with the prediction and links to
 * the disease. Shown (it is mounted once per choice), it scrolls into view and takes the focus on
 * its heading, so the photos of a cell chosen high on the page are not left below the fold and a
 * keyboard or screen reader user lands on them.
 */
export function PredictionPhotos({
  modelId,
  evaluationId,
  selection,
  title,
  labelNames,
}: {
  modelId: string;
  evaluationId: string;
  selection: PhotoSelection;
  title: string;
  /** The report's class names by label: predictions are labels (slugs). */
  labelNames: Map<string, string>;
}) {
  const query = useEvaluationPhotos(modelId, evaluationId, selection);
  const nameOf = (label: string) => labelNames.get(label) ?? label;
  const topOf = (top: PredictionPhoto['top']) => S.report.top(top.map((t) => ({ ...t, label: nameOf(t.label) })));
  const data = query.data;
  const sectionRef = useRef<HTMLElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const still = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    sectionRef.current?.scrollIntoView?.({ block: 'start', behavior: still ? 'auto' : 'smooth' });
    headingRef.current?.focus({ preventScroll: true });
  }, []);
  return (
    <section
      ref={sectionRef}
      aria-labelledby="cell-photos"
      className="mt-4 scroll-mt-4 rounded-lg border border-slate-200 p-3"
      data-testid="cell-photos"
    >
      <h3
        id="cell-photos"
        ref={headingRef}
        tabIndex={-1}
        className="rounded text-sm font-semibold text-slate-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
      >
        {title}
      </h3>
      {!data ? (
        query.isError ? (
          <p role="alert" className="mt-2 text-sm text-red-700">
            {query.error.message}
          </p>
        ) : (
          <div className="mt-2">
            <Spinner />
          </div>
        )
      ) : (
        <>
          <p role="status" className="mt-1 text-sm text-slate-600">
            {data.total === 0 ? S.report.noCellPhotos : S.report.photosShown(data.photos.length, data.total)}
          </p>
          <ul
            className="mt-3 grid grid-cols-2 gap-3 min-[480px]:grid-cols-3 md:grid-cols-4 xl:grid-cols-6"
            aria-busy={query.isFetching || undefined}
          >
            {data.photos.map((p) => (
              <li key={p.imageId} data-testid="prediction-photo">
                <figure className="m-0" title={topOf(p.top)}>
                  {p.thumbUrl ? (
                    <img
                      src={p.thumbUrl}
                      alt={S.report.photoOf(p.diseaseName)}
                      loading="lazy"
                      className="aspect-square w-full rounded-md object-cover ring-1 ring-slate-200"
                    />
                  ) : (
                    <div className="flex aspect-square w-full items-center justify-center rounded-md bg-slate-100 text-xs text-slate-600">
                      {S.report.photoOf(p.diseaseName)}
                    </div>
                  )}
                  <figcaption className="mt-1 space-y-0.5 text-xs text-slate-700">
                    <span className="block font-semibold text-slate-900">{S.report.predictedAs(nameOf(p.predicted), p.confidence)}</span>
                    <span className="block truncate">{p.diseaseName}</span>
                    {p.liveVerdict && <span className="block text-slate-600">{S.report.liveVerdict(nameOf(p.liveVerdict))}</span>}
                    <span className="sr-only">{topOf(p.top)}</span>
                    <span className="flex flex-col gap-0.5 pt-0.5">
                      <Link
                        to={diseaseLink(p.diseaseId)}
                        className={smallLink}
                        aria-label={S.report.linkFor(S.report.openDisease, p.diseaseName)}
                      >
                        <ExternalLink className="h-3 w-3" aria-hidden />
                        {S.report.openDisease}
                      </Link>
                      <Link to={HEALTH} className={smallLink}>
                        <Activity className="h-3 w-3" aria-hidden />
                        {S.report.openHealth}
                      </Link>
                    </span>
                  </figcaption>
                </figure>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
