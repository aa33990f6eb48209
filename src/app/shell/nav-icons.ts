import {
  BrainCircuit,
  Bug,
  Circle,
  ClipboardCheck,
  FileCog,
  History,
  Languages,
  LayoutDashboard,
  Microscope,
  Sprout,
  Users,
  type LucideIcon,
} from 'lucide-react';

/** The sidebar's icon of each NAV path (kept out of nav.ts, which the login bundle reads). */
const ICONS: Record<string, LucideIcon> = {
  '/dashboard': LayoutDashboard,
  '/dashboard/rice_varieties': Sprout,
  '/dashboard/rice_pests': Bug,
  '/dashboard/rice_diseases': Microscope,
  '/dashboard/accounts': Users,
  '/dashboard/review': ClipboardCheck,
  '/dashboard/history_logs': History,
  '/dashboard/translations': Languages,
  '/dashboard/file_maintenance': FileCog,
  '/dashboard/scanner_models': BrainCircuit,
};

export function navIcon(path: string): LucideIcon {
  return ICONS[path] ?? Circle;
}
