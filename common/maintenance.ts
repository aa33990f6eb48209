/**
 * File maintenance texts and limits (docs/PRODUCT.md sections 2, 5, 8 and 9). The browser renders
 * these; the server uses the same texts in its errors.
 */
export const MAINTENANCE_LIMITS = {
  /** Longest option text accepted (security questions are the longest in practice). */
  maxValueLength: 200,
  /** Most options one list may hold. */
  maxItemsPerList: 200,
  /** The first release year of the year-release list (docs/PRODUCT.md section 9). */
  firstReleaseYear: 2012,
  /** The department's time zone decides when the year turns. */
  timeZone: 'Asia/Manila',
  /** How often the server checks whether the year has turned. */
  yearCheckMs: 60 * 60 * 1000,
} as const;

export type ListKey = 'seasons' | 'plantingMethods' | 'environments' | 'yearReleases' | 'securityQuestions' | 'affectedParts';

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

const USAGE = {
  varieties: (n: number) => `used by ${plural(n, 'variety', 'varieties')}`,
  accounts: (n: number) => `chosen by ${plural(n, 'account', 'accounts')}`,
  diseases: (n: number) => `used by ${plural(n, 'disease', 'diseases')}`,
};

export const MAINTENANCE = {
  title: 'File Maintenance',
  subtitle: 'Manage the option lists used by forms',
  back: 'Back',
  tiles: {
    riceVariety: { label: 'Rice Variety', hint: 'Seasons, planting methods, environments and year releases' },
    pest: { label: 'Pest', hint: 'Pest option lists' },
    disease: { label: 'Rice Disease', hint: 'Affected plant parts' },
    accounts: { label: 'Accounts', hint: 'Security questions' },
  },
  placeholder: 'There are no option lists to maintain here yet.',
  lists: {
    seasons: { title: 'Seasons', addLabel: 'New season', placeholder: 'e.g. Dry' },
    plantingMethods: { title: 'Planting Methods', addLabel: 'New planting method', placeholder: 'e.g. Transplanting' },
    environments: { title: 'Environments', addLabel: 'New environment', placeholder: 'e.g. Rainfed Lowland' },
    yearReleases: { title: 'Year Releases', addLabel: 'New year release', placeholder: 'e.g. 2026' },
    securityQuestions: {
      title: 'Security Questions',
      addLabel: 'New security question',
      placeholder: 'e.g. What is the name of your first school?',
    },
    affectedParts: { title: 'Affected Parts', addLabel: 'New plant part', placeholder: 'e.g. leaf' },
  } satisfies Record<ListKey, { title: string; addLabel: string; placeholder: string }>,
  add: 'Add',
  remove: 'Remove',
  cancel: 'Cancel',
  viewMore: (hidden: number) => `View more (${hidden})`,
  viewLess: 'View less',
  emptyList: 'No options yet.',
  saveChanges: 'Save Changes',
  saving: 'Saving...',
  discard: 'Discard changes',
  unsavedNote: 'You have unsaved changes to the order of the options.',
  moveUp: (value: string) => `Move ${value} up`,
  moveDown: (value: string) => `Move ${value} down`,
  dragHandle: (value: string) => `Drag ${value} to reorder`,
  usage: USAGE,
  usingDefaults: 'No security questions are saved, so the five default questions apply.',
  removeTitle: 'Remove option?',
  removeQuestion: (value: string) => `Remove "${value}"?`,
  removeWarning: 'Forms that use this option are affected: it will no longer be offered.',
  removeWarningSecurity:
    'Forgot Password verification is affected: accounts that chose this question can no longer select it to recover their password.',
  removeInUse: {
    varieties: (n: number) => `It is ${USAGE.varieties(n)}.`,
    accounts: (n: number) => `It is ${USAGE.accounts(n)}.`,
    diseases: (n: number) => `It is ${USAGE.diseases(n)}.`,
  },
  removing: 'Removing...',
  adding: 'Adding...',
  unsaved: {
    title: 'Leave without saving?',
    message: 'You have unsaved changes. If you leave this page now, they will be lost.',
    stay: 'Stay',
    leave: 'Leave',
  },
  toasts: {
    saved: 'Saved.',
    added: 'Added.',
    removed: 'Removed.',
    exists: 'Already exists.',
    saveFailed: 'Save failed.',
    addFailed: 'Add failed.',
    removeFailed: 'Remove failed.',
    loadFailed: 'Failed to load data.',
    initFailed: 'Initialization failed.',
    questionsLoadFailed: 'Failed to load security questions.',
  },
  errors: {
    empty: 'Enter a value.',
    tooLong: `Use at most ${MAINTENANCE_LIMITS.maxValueLength} characters.`,
    tooMany: `A list holds at most ${MAINTENANCE_LIMITS.maxItemsPerList} options.`,
    year: 'Enter a 4-digit year (e.g., 2026).',
    wrongList: 'This list does not belong to that document.',
  },
  audit: {
    names: {
      rice_varieties_enums: 'Rice Variety option lists',
      accounts_enums: 'Security questions',
      rice_diseases_enums: 'Rice Disease option lists',
    },
    added: (list: string, value: string) => `Added "${value}" to ${list}`,
    removed: (list: string, value: string) => `Removed "${value}" from ${list}`,
    saved: (lists: string) => `Saved ${lists}`,
    newYear: (years: string) => `Added ${years} to Year Releases (the year turned)`,
    yearsInUse: (years: string) => `Added ${years} to Year Releases (years of stored varieties)`,
  },
} as const;
