/**
 * The permission table of docs/PRODUCT.md section 6, declared once. The server enforces it on
 * every route; the browser uses it only to hide what a role cannot use.
 */
export const ROLES = ['SYSTEM_ADMIN', 'ADMIN'] as const;
export type Role = (typeof ROLES)[number];

const TABLE = {
  SYSTEM_ADMIN: {
    dashboard: { view: true },
    content: { view: true, create: true, update: true, delete: true },
    history: { view: true, viewAll: true, viewSecurityActions: true, verify: true },
    accounts: { manage: true },
    maintenance: { manage: true },
    trainingData: { export: true },
    secondFactor: { manageOwn: true },
    trash: { view: true, restore: true },
    scannerModels: { manage: true },
    review: { approve: true, settings: true, breakGlass: true },
    languages: { manage: true },
  },
  ADMIN: {
    dashboard: { view: true },
    content: { view: true, create: true, update: true, delete: true },
    history: { view: true, viewAll: false, viewSecurityActions: false, verify: false },
    accounts: { manage: false },
    maintenance: { manage: false },
    trainingData: { export: false },
    secondFactor: { manageOwn: false },
    trash: { view: false, restore: false },
    scannerModels: { manage: false },
    review: { approve: false, settings: false, breakGlass: false },
    languages: { manage: false },
  },
} as const satisfies Record<Role, Record<string, Record<string, boolean>>>;

type Table = typeof TABLE.SYSTEM_ADMIN;
export type Permission = { [G in keyof Table]: `${G & string}.${keyof Table[G] & string}` }[keyof Table];

/** Flat flag names, accepted in place of the dotted form (docs/PRODUCT.md section 6). */
const FLAGS = {
  canViewDashboard: 'dashboard.view',
  canManageContent: 'content.update',
  canViewHistory: 'history.view',
  canViewAllHistory: 'history.viewAll',
  canManageAccounts: 'accounts.manage',
  canManageMaintenance: 'maintenance.manage',
} as const satisfies Record<string, Permission>;
export type PermissionFlag = keyof typeof FLAGS;

/** Trims, upper-cases and turns spaces into underscores; a missing role is ADMIN. */
export function normalizeRole(raw: unknown): Role {
  if (typeof raw !== 'string' || raw.trim() === '') return 'ADMIN';
  const role = raw.trim().toUpperCase().replace(/\s+/g, '_');
  return (ROLES as readonly string[]).includes(role) ? (role as Role) : 'ADMIN';
}

/** True when the role holds the permission, given as 'group.flag' or a flag name; false without a role. */
export function can(role: Role | null | undefined, permission: Permission | PermissionFlag): boolean {
  if (!role) return false;
  const dotted = permission in FLAGS ? FLAGS[permission as PermissionFlag] : permission;
  const [group, flag] = dotted.split('.') as [keyof Table, string];
  const groupTable = TABLE[role]?.[group] as Record<string, boolean> | undefined;
  return groupTable?.[flag] === true;
}

/**
 * What a route requires, declared once in its definition: nothing ('public'), any signed-in
 * role ('signedIn'), or one permission of the table above. The server refuses to start when
 * an API route declares none, and decides from the matched route, never from the URL's text.
 */
export type Access = 'public' | 'signedIn' | Permission;

export function isAccess(value: unknown): value is Access {
  if (value === 'public' || value === 'signedIn') return true;
  if (typeof value !== 'string' || !value.includes('.')) return false;
  const [group, flag] = value.split('.') as [keyof Table, string];
  return Object.hasOwn(TABLE.SYSTEM_ADMIN, group) && Object.hasOwn(TABLE.SYSTEM_ADMIN[group], flag);
}

/** Actions an ADMIN never sees in the history (docs/PRODUCT.md section 6). */
export const SECURITY_ACTIONS = ['LOGIN', 'RESTRICT', 'UNRESTRICT', 'SIGN_OUT', 'SECOND_FACTOR'] as const;
