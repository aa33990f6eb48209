import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router';
const ReviewListPage = lazy(() => import('./list-page').then((m) => ({ default: m.ReviewListPage })));
const ReviewDetailPage = lazy(() => import('./detail-page').then((m) => ({ default: m.ReviewDetailPage })));

/** /dashboard/review (the queue) and /dashboard/review/:id (one change); any signed-in staff (content.view). */
export function ReviewScreens() {
  return (
    <Routes>
      <Route index element={<ReviewListPage />} />
      <Route path=":id" element={<ReviewDetailPage />} />
      <Route path="*" element={<Navigate to="/dashboard/review" replace />} />
    </Routes>
  );
}
