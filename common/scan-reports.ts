/**
 * The disease scanner's reports: what the farmer app sends after a scan, how the
 * server bounds it, and the dashboard's Detections texts. Shared by browser and server.
 */

/** Tarlac's municipalities and its city, as the dashboard lists them (alphabetical). */
export const TARLAC_MUNICIPALITIES = [
  'Anao',
  'Bamban',
  'Camiling',
  'Capas',
  'Concepcion',
  'Gerona',
  'La Paz',
  'Mayantoc',
  'Moncada',
  'Paniqui',
  'Pura',
  'Ramos',
  'San Clemente',
  'San Jose',
  'San Manuel',
  'Santa Ignacia',
  'Tarlac City',
  'Victoria',
] as const;

/** The municipality as the dashboard spells it, from what a phone sends ('tarlac', 'STA. IGNACIA'…), or null. */
export function canonicalMunicipality(value: string): string | null {
  const key = value
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/^sta\.? /, 'santa ')
    .replace(/, ?tarlac$/, '');
  for (const m of TARLAC_MUNICIPALITIES) {
    const name = m.toLowerCase();
    if (key === name || (name === 'tarlac city' && (key === 'tarlac' || key === 'city of tarlac'))) return m;
  }
  return null;
}

export const SCAN_REPORT_LIMITS = {
  /** Largest request body the report route reads. */
  maxBodyBytes: 2048,
  /** Reports one app install may send per minute (SCAN_REPORTS_PER_INSTALL_PER_MINUTE; all instances together). */
  perInstallPerMinute: 30,
  /** Reports one IP address may send per minute (SCAN_REPORTS_PER_IP_PER_MINUTE; farmers share carrier addresses). */
  perIpPerMinute: 600,
  /** Reports the whole deployment takes per minute (SCAN_REPORTS_PER_MINUTE): beyond it, 429 with Retry-After. */
  perMinute: 6000,
  /** Installs one IP address may register per hour (INSTALL_REGISTRATIONS_PER_IP_PER_HOUR): a training day's hall on one Wi-Fi. */
  installsPerIpPerHour: 60,
  /** Random bytes of an install id (base64url: 22 characters). */
  installIdBytes: 16,
  /** A scan time this far ahead of the server clock is refused (phone clocks drift). */
  maxClockSkewMs: 10 * 60_000,
  /**
   * A scan older than this many days is refused (SCAN_REPORT_MAX_AGE_DAYS): nobody can rewrite
   * the weeks the department has already planned from.
   */
  maxAgeDays: 30,
  /** Days kept by default (SCAN_REPORT_RETENTION_DAYS). */
  retentionDays: 730,
  /** Rows one retention batch deletes. */
  retentionBatch: 5000,
  /** The retention job runs this often. */
  retentionEveryMs: 24 * 60 * 60_000,
  /** Live dashboard events are coalesced to at most one per this interval per instance. */
  liveEventEveryMs: 1000,
  /** Weeks in the Detections chart and days in its top list. */
  weeks: 12,
  topDays: 30,
  topCount: 5,
} as const;

export const SCAN_REPORT_TEXTS = {
  unknownLabel: 'label must be the label of a disease or training class of the current training set (labels.txt).',
  unknownMunicipality: `municipality must be one of Tarlac's municipalities: ${TARLAC_MUNICIPALITIES.join(', ')}.`,
  futureScan: 'scannedAt is in the future.',
  tooOld: (days: number) => `scannedAt is more than ${days} days ago; such reports are not accepted.`,
  idFormat: 'Use 8 to 64 letters, digits, - or _ (a UUID is best).',
  noInstallToken: 'Send the install token from POST /api/public/v1/installs as "Authorization: Bearer <installToken>".',
  badInstallToken: 'This install token is not valid: register again with POST /api/public/v1/installs.',
  installIdMismatch: "installId must be the install token's id, or be left out.",
  tooManyInstalls: 'Too many installs registered from this address. Try again later.',
  limited: {
    install: 'This install sent too many reports in the last minute. Send the rest later.',
    address: 'Too many reports from this address in the last minute. Send the rest later.',
    deployment: 'The server is taking too many reports right now. Send the rest later.',
  },
  audit: {
    collection: 'scan_reports',
    name: 'Scan reports',
    purged: (n: number, days: number) => `Deleted ${n} scan ${n === 1 ? 'report' : 'reports'} older than ${days} days`,
  },
} as const;

export const DETECTIONS_TEXTS = {
  title: 'Detections',
  subtitle: "Diseases the farmers' scanner found, from the app's scan reports",
  weeklyTitle: 'Reports per disease per week (last 12 weeks)',
  weeklyChartLabel: (disease: string) => `Line chart of weekly scan reports for ${disease}. The table below lists the same numbers.`,
  showTable: 'Show as table',
  hideTable: 'Hide table',
  week: 'Week of',
  topTitle: 'Top diseases (last 30 days)',
  municipalityTitle: 'Reports per municipality (last 30 days)',
  modelTitle: 'Reports per scanner model (last 30 days)',
  modelVersion: 'Model version',
  unknownModel: 'Not a model of this console',
  municipality: 'Municipality',
  reports: 'Reports',
  disease: 'Disease',
  allDiseases: 'All diseases',
  filterLabel: 'Disease',
  notGiven: 'Not given',
  none: 'No scan reports yet.',
  exportCsv: 'Export CSV',
  total: 'Total',
  loadFailed: 'Failed to load detections.',
} as const;
