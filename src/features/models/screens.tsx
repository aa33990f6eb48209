import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router';
const ModelsPage = lazy(() => import('./models-page').then((m) => ({ default: m.ModelsPage })));
const ReportPage = lazy(() => import('./report-page').then((m) => ({ default: m.ReportPage })));

/** /dashboard/scanner_models and an evaluation's report (the router guards them with scannerModels.manage). */
export function ModelsScreens() {
  return (
    <Routes>
      <Route index element={<ModelsPage />} />
      <Route path=":id/evaluations/:evaluationId" element={<ReportPage />} />
      <Route path="*" element={<Navigate to="/dashboard/scanner_models" replace />} />
    </Routes>
  );
}
