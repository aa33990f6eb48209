import { lazy } from 'react';
import { VARIETIES, VARIETY_TOPIC } from '../../../common/varieties';
import type { FeatureRoutes } from '../../app/feature-routes';
import { WithTrash } from '../../components/trash/with-trash';
const VarietiesPage = lazy(() => import('./varieties-page').then((m) => ({ default: m.VarietiesPage })));

export const routes: FeatureRoutes = {
  dashboard: [{ path: 'rice_varieties', element: <WithTrash collection={VARIETY_TOPIC} title={VARIETIES.title}><VarietiesPage /></WithTrash> }],
};
