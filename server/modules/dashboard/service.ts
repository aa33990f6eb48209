import { activityText, activityType } from '../../../common/activity.js';
import { LIMITS } from '../../../common/limits.js';
import { can } from '../../../common/permissions.js';
import type { ActivityItem } from '../../../common/schemas/dashboard.js';
import type { AppContext, AuthContext } from '../../platform/context.js';
import { dashboardRepository } from './repository.js';

export function createDashboardService(ctx: AppContext) {
  return {
    counts: () => dashboardRepository.counts(ctx.db),

    /** SPEC.md section 4: by userId, then actorId, then performedBy; 5 asked, 4 shown. */
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
