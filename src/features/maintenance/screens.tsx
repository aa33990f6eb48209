import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { MAINTENANCE } from '../../../common/maintenance';
import { RequirePermission } from '../../app/guards';
import { ACCOUNT_ENUMS_ID, DISEASE_ENUMS_ID, VARIETY_ENUMS_ID } from '../../../common/schemas/maintenance';
const MaintenanceHomePage = lazy(() => import('./home-page').then((m) => ({ default: m.MaintenanceHomePage })));
const ListsPage = lazy(() => import('./lists-page').then((m) => ({ default: m.ListsPage })));
const LanguagesPage = lazy(() => import('./languages-page').then((m) => ({ default: m.LanguagesPage })));
const PlaceholderPage = lazy(() => import('./placeholder-page').then((m) => ({ default: m.PlaceholderPage })));

/** /dashboard/file_maintenance and its sub-pages (the router guards them with maintenance.manage). */
export function MaintenanceScreens() {
  return (
    <Routes>
      <Route index element={<MaintenanceHomePage />} />
      <Route
        path="rice_variety"
        element={
          <ListsPage
            key={VARIETY_ENUMS_ID}
            docId={VARIETY_ENUMS_ID}
            title={MAINTENANCE.tiles.riceVariety.label}
            subtitle={MAINTENANCE.tiles.riceVariety.hint}
            loadFailed={MAINTENANCE.toasts.loadFailed}
          />
        }
      />
      <Route
        path="accounts"
        element={
          <ListsPage
            key={ACCOUNT_ENUMS_ID}
            docId={ACCOUNT_ENUMS_ID}
            title={MAINTENANCE.tiles.accounts.label}
            subtitle={MAINTENANCE.tiles.accounts.hint}
            loadFailed={MAINTENANCE.toasts.questionsLoadFailed}
          />
        }
      />
      <Route path="pest" element={<PlaceholderPage title={MAINTENANCE.tiles.pest.label} />} />
      <Route
        path="rice_disease"
        element={
          <ListsPage
            key={DISEASE_ENUMS_ID}
            docId={DISEASE_ENUMS_ID}
            title={MAINTENANCE.tiles.disease.label}
            subtitle={MAINTENANCE.tiles.disease.hint}
            loadFailed={MAINTENANCE.toasts.loadFailed}
          />
        }
      />
      <Route
        path="languages"
        element={
          <RequirePermission permission="languages.manage">
            <LanguagesPage />
          </RequirePermission>
        }
      />
      <Route path="*" element={<Navigate to="/dashboard/file_maintenance" replace />} />
    </Routes>
  );
}
