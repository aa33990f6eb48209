/**
 * The texts of the Rice varieties screen (docs/PRODUCT.md sections 2, 5, 8), the specification's words, used by the
 * browser and by the server's validation messages.
 */
export const VARIETY_TOPIC = 'rice_seed_varieties' as const;

/** Field labels as the required-field messages name them ('{label} is required.'). */
export const VARIETY_LABELS = {
  varietyName: 'Variety name',
  releaseName: 'Release name',
  yearRelease: 'Year release',
  breedingCode: 'Breeding code',
  breederOrigin: 'Breeder origin',
  maturityDays: 'Maturity days',
  averageYield: 'Average yield',
  maxYield: 'Maximum yield',
  plantHeight: 'Plant height',
  tillers: 'Number of tillers',
  location: 'Location',
  season: 'Season',
  plantingMethod: 'Planting method',
  environment: 'Environment',
  recommendedInTarlac: 'Recommended in Tarlac',
} as const;

export type VarietyField = keyof typeof VARIETY_LABELS;

export const VARIETY_MESSAGES = {
  required: (label: string) => `${label} is required.`,
  plantingMethodRequired: 'Planting method is required.',
  seasonRequired: 'Select at least one season.',
  environmentRequired: 'Select at least one environment.',
  wholeNumber: 'Enter a whole number.',
  decimal: 'Enter a valid number (e.g., 3 or 4.3).',
  /** Not given by the product's rules: the limits that keep values inside what the database stores. */
  tooLong: (max: number) => `Use at most ${max} characters.`,
  tooLarge: (max: number) => `Enter a number no larger than ${max.toLocaleString('en-US')}.`,
  /** Not given by the product's rules for varieties (docs/PRODUCT.md section 5, typed-name confirmations). */
  deleteMismatch: 'The text does not match the variety name.',
} as const;

export const VARIETIES = {
  title: 'Rice Varieties',
  subtitle: 'Manage rice variety entries',
  searchPlaceholder: 'Search e.g variety name, year release, location...',
  searchLabel: 'Search rice varieties',
  addNew: 'Add New Variety',
  empty: 'No rice variety found',
  /** Under the empty list, when nothing is searched or filtered (not in docs/PRODUCT.md). */
  emptyNext: 'Add the first variety, or import a spreadsheet of them.',
  addFirst: 'Add the first variety',
  importFirst: 'Import a spreadsheet',
  loading: 'Loading rice varieties...',
  columns: {
    varietyName: 'Variety Name',
    releaseName: 'Release Name',
    breedingCode: 'Breeding Code',
    breederOrigin: 'Breeder Origin',
    yearRelease: 'Year Release',
    location: 'Location',
    recommendedInTarlac: 'Recommended in Tarlac',
    actions: 'Actions',
  },
  /** The view dialog's labels (docs/PRODUCT.md section 2). */
  view: {
    title: 'Rice Variety Details',
    averageYield: 'Average Yield',
    maxYield: 'Max Yield',
    maturityDays: 'Maturity Days',
    plantHeight: 'Plant Height',
    tillers: 'Tillers',
    season: 'Season',
    plantingMethod: 'Planting Method',
    environment: 'Environment',
    createdAt: 'Created Date',
    updatedAt: 'Last Updated',
    close: 'Close',
  },
  units: { yield: 't/ha', height: 'cm', days: 'days' },
  yes: 'Yes',
  no: 'No',
  dash: '-',
  actions: { view: 'View', edit: 'Edit', delete: 'Delete' },
  /** A name another live variety has (trimmed, any case): named while typing; a save asks first. */
  duplicate: {
    exists: (name: string) => `A variety with this name exists: ${name}.`,
    open: 'Open it',
    confirm: (name: string) => `A variety named ${name} already exists. Save another with the same name?`,
    saveAnyway: 'Save anyway',
  },
  /** The list's sort, filters and selection (not in docs/PRODUCT.md: added around its table). */
  list: {
    sortBy: 'Sort by',
    order: 'Order',
    sorts: { name: 'Variety name', year: 'Year release', maturity: 'Maturity days', yield: 'Average yield', added: 'Date added' },
    dirs: { asc: 'Ascending', desc: 'Descending' },
    any: 'Any',
    tarlacYes: 'Recommended',
    tarlacNo: 'Not recommended',
    missingOnly: 'Needs completing only',
    clear: 'Clear filters',
    noMatch: 'No rice variety matches these filters.',
    select: (name: string) => `Select ${name}`,
    selectPage: 'Select all on this page',
    selected: (n: number) => `${n.toLocaleString('en-US')} selected`,
    clearSelection: 'Clear selection',
    exportSelected: 'Export selected',
    deleteSelected: 'Delete selected',
    bulkDelete: {
      title: (n: number) => `Delete ${n.toLocaleString('en-US')} rice ${n === 1 ? 'variety' : 'varieties'}`,
      text: (names: string[]) => `This removes from the list: ${names.join(', ')}. The entries stay in the history logs.`,
      expected: (n: number) => `delete ${n}`,
      mismatch: 'The text does not match.',
      progress: (done: number, n: number) => `Deleting ${done} of ${n}...`,
      done: (n: number) => `${n.toLocaleString('en-US')} rice ${n === 1 ? 'variety' : 'varieties'} deleted.`,
      failed: (name: string, reason: string) => `${name}: ${reason}`,
    },
  },
  needsCompleting: {
    button: (n: number) => `Needs completing (${n.toLocaleString('en-US')})`,
    title: 'Varieties that need completing',
    text: 'These records lack required fields. Each can be saved as it is; fill in what is known when you have it.',
    lacks: (labels: string[]) => `Lacks: ${labels.join(', ')}`,
    edit: 'Edit',
    close: 'Close',
  },
  form: {
    addTitle: 'Add New Variety',
    editTitle: 'Edit Variety',
    sections: { identity: 'Identity', agronomic: 'Agronomic Data', recommendation: 'Recommendation' },
    selectYear: 'Select year',
    selectPlantingMethod: 'Select planting method',
    loadingOptions: 'Loading options...',
    removedOption: '(no longer in the list)',
    yearNotListed: '(not in the year list)',
    /** An edit of a record that lacks required fields: they may stay empty. */
    missingSummary: (labels: string[]) =>
      `${labels.length} ${labels.length === 1 ? 'field is' : 'fields are'} missing: ${labels.join(', ')}. ` +
      'You can save without them and fill them in when the facts are known.',
    missingHint: 'Missing: may stay empty',
    /** Escape, a click beside the form or its close button on a changed form. */
    discard: {
      title: 'Discard changes?',
      text: 'What you changed in this form has not been saved and will be lost.',
      keep: 'Keep editing',
      confirm: 'Discard changes',
    },
    /** The form kept as the account's draft while typed in (not in docs/PRODUCT.md). */
    draft: {
      addTitle: 'Continue the unsaved variety?',
      editTitle: 'Continue your unsaved changes to this variety?',
      hint: (name: string, keptAt: string) =>
        `${name ? `"${name}", ` : ''}last kept ${keptAt}. It was not saved: the form was closed by a sign-out, a reload or a lost connection.`,
      continue: 'Continue',
      startOver: 'Start over',
    },
    recommendedHint: 'This variety is recommended for planting in Tarlac.',
    cancel: 'Cancel',
    save: 'Save',
    update: 'Update',
  },
  confirmSave: {
    title: 'Confirm save',
    addText: (name: string) => `Save rice variety ${name}?`,
    editText: (name: string) => `Save the changes to rice variety ${name}?`,
    confirm: 'Confirm',
    saving: 'Saving...',
  },
  result: {
    savedTitle: 'Saved!',
    updatedTitle: 'Updated!',
    saved: (name: string) => `Rice variety ${name} has been saved successfully.`,
    updated: (name: string) => `Rice variety ${name} has been updated successfully.`,
    failedTitle: 'Failed',
    failedDefault: 'Failed to save.',
    ok: 'OK',
  },
  deleteDialog: {
    title: 'Delete rice variety',
    text: (name: string) => `This removes rice variety ${name} from the list. The entry stays in the history logs.`,
    confirm: 'Delete',
    busy: 'Deleting...',
  },
  deleted: 'Rice variety deleted successfully!',
  errorDeleting: (message: string) => `Error deleting rice variety: ${message}`,
} as const;
