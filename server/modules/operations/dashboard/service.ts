import { activityText, activityType } from '../../../../common/activity.js';
import { LIMITS } from '../../../../common/limits.js';
import { can } from '../../../../common/permissions.js';
import type { ActivityItem, ContentWeekly } from '../../../../common/schemas/dashboard.js';
import { addDays, manilaDate, manilaDayStart, mondayOf } from '../../../../common/history-dates.js';
import type { AppContext, AuthContext } from '../../../platform/http/context.js';
import { dashboardRepository } from './repository.js';

const WEEKS = 12;

export function createDashboardService(ctx: AppContext) {
  return {
    counts: () => dashboardRepository.counts(ctx.db),

    /** Varieties, pests and diseases added (CREATE) and changed (UPDATE) per Manila week, 12 weeks. */
    async contentWeekly(now = Date.now()): Promise<ContentWeekly> {
      const firstWeek = addDays(mondayOf(manilaDate(now)), -7 * (WEEKS - 1));
      const weeks = Array.from({ length: WEEKS }, (_, i) => addDays(firstWeek, 7 * i));
      const index = new Map(weeks.map((w, i) => [w, i]));
      const from = new Date(manilaDayStart(firstWeek)).toISOString();
      const added = new Array<number>(WEEKS).fill(0);
      const changed = new Array<number>(WEEKS).fill(0);
      for (const row of await dashboardRepository.contentPerHour(ctx.db, from)) {
        const at = Date.parse(`${row.hour}:00:00Z`);
        if (Number.isNaN(at)) continue; // imported entries without a usable date
        const i = index.get(mondayOf(manilaDate(at)));
        if (i === undefined) continue;
        (row.action === 'CREATE' ? added : changed)[i]! += Number(row.n);
      }
      return { weeks, added, changed };
    },

    /** docs/PRODUCT.md section 4: by userId, then actorId, then performedBy; 5 asked, 4 shown. */
    async recentActivities(auth: AuthContext): Promise<ActivityItem[]> {
      const hide = !can(auth.role, 'history.viewSecurityActions');
      for (const field of ['userId', 'actorId', 'performedBy'] as const) {
        const rows = await dashboardRepository.recentBy(ctx.db, field, auth.user.id, LIMITS.recentActivitiesRequested, hide);
        if (rows.length > 0) {
          return rows.slice(0, LIMITS.recentActivitiesShown).map((row) => ({
            id: row.id,
            type: activityType(row.collection),
            action: row.action,
            text: activityText(row.action, row.collection, row.documentName ?? row.name),
            timestamp: row.timestamp,
          }));
        }
      }
      return [];
    },
  };
}
