/** The catalog dialogs' field labels and the uploader's texts, the same for pests and diseases. */
/** Field labels of the add/edit and view dialogs and the card. */
export const CATALOG_LABELS = {
  name: 'Name',
  scientificName: 'Scientific Name',
  localName: 'Local Name',
  localNameHint: 'The Filipino name farmers know; the farmer app shows it with the name.',
  affectedParts: 'Affected Parts',
  affectedPartsHint: 'Parts of the rice plant it shows on. The options are kept in File Maintenance.',
  removedOption: '(no longer in the list)',
  affectedPartsUnknown: 'Choose parts from the Affected Parts list in File Maintenance.',
  trainingClass: 'Training class (not a disease)',
  trainingClassHint:
    'A scanner class that is not a disease, e.g. healthy leaves or not a rice plant: its photos go into the training set; the farmer app never shows it.',
  trainingClassBadge: 'Training class',
  trainingClassForbidden: 'Only a super admin can change whether this is a training class.',
  notRicePlant: 'Not a rice plant (for the plant check)',
  notRicePlantHint:
    'Photos of other plants, soil, hands or papers. The plant check is scored on them as "not a rice plant", ' +
    'and on the photos of every other disease and training class as a rice plant.',
  notRicePlantBadge: 'Not a rice plant',
  notRicePlantNeedsTraining: 'Only a training class can be "not a rice plant": tick Training class too.',
  /** A name another live entry of the kind has (trimmed, any case): named while typing; a save asks first. */
  duplicateName: (noun: string, name: string) => `A ${noun} with this name exists: ${name}.`,
  duplicateOpen: 'Open it',
  duplicateConfirmTitle: 'Same name',
  duplicateConfirm: (noun: string, name: string) => `A ${noun} named ${name} already exists. Save another with the same name?`,
  duplicateSaveAnyway: 'Save anyway',
  description: 'Description',
  cause: 'Cause',
  symptoms: 'Symptoms',
  treatments: 'Treatments',
  images: 'Images',
  createdDate: 'Created Date',
  lastUpdated: 'Last Updated',
  /** The screen's two ways of showing the list (not in docs/PRODUCT.md: the cards are its own). */
  showAs: 'Show as',
  /** Under an empty list (not in docs/PRODUCT.md). */
  emptyNext: (noun: string) => `Add the first ${noun} with its photos.`,
  addFirst: (noun: string) => `Add the first ${noun}`,
  asCards: 'Cards',
  asList: 'List',
  photo: 'Photo',
  photos: 'Photos',
  actions: 'Actions',
  view: 'View',
  edit: 'Edit',
  delete: 'Delete',
  save: 'Save',
  saving: 'Saving...',
  cancel: 'Cancel',
  close: 'Close',
  deleting: 'Deleting...',
  loadMore: 'Load more',
  noImage: 'No image',
  processing: 'Processing...',
  moreImages: (n: number) => `+${n} more`,
  showFewer: 'Show fewer',
  imageCount: (n: number) => `${n} ${n === 1 ? 'image' : 'images'}`,
  currentImages: 'Current images',
  newImages: 'New images',
  removeImage: 'Remove image',
  restoreImage: 'Undo remove',
  removedCount: (n: number) => `${n} ${n === 1 ? 'image' : 'images'} will be removed when you save.`,
} as const;

/** Texts of the bulk uploader and of the upload route's refusals. */
export const UPLOAD_TEXTS = {
  dropHere: 'Drop photos here, or',
  chooseFiles: 'choose files',
  chooseFolder: 'choose a folder',
  acceptedTypes: 'JPEG, PNG, WebP, GIF or HEIC photos, up to 25 MB each.',
  notImage: 'Only JPEG, PNG, WebP or GIF images can be uploaded.',
  svgRefused: 'SVG images are not accepted. Please upload a photo (JPEG, PNG, WebP or GIF).',
  heicNotConverted: 'HEIC photos must be converted to JPEG before upload.',
  tooLarge: 'This file is larger than 25 MB.',
  tooManyPixels: 'This image is too large (more than 50 megapixels).',
  unreadable: 'This file is not a readable image.',
  noFile: 'No file was sent.',
  stagedMissing: 'Some photos are no longer available. Please upload them again.',
  duplicateImage: 'Each image can be used only once.',
  keepOneImage: 'An entry must keep at least 1 image.',
  skippedNotImages: (n: number) =>
    n === 1 ? '1 file was skipped because it is not an image.' : `${n} files were skipped because they are not images.`,
  /** Save pressed while photos upload: the form saves by itself when they are done. */
  saveWhenUploaded: (n: number) => `Saving when ${n} ${n === 1 ? 'photo finishes' : 'photos finish'} uploading…`,
  saveStopped: (n: number) =>
    `Not saved: ${n} ${n === 1 ? 'photo' : 'photos'} failed to upload. Retry ${n === 1 ? 'it' : 'them'} ` +
    `to save, or remove ${n === 1 ? 'it' : 'them'} and press Save.`,
  retryAndSave: 'Retry and save',
  dontWait: 'Stop waiting',
  failedUploads: (n: number) => `${n} ${n === 1 ? 'photo' : 'photos'} failed to upload. Retry or remove ${n === 1 ? 'it' : 'them'}.`,
  converting: 'Converting HEIC...',
  resizing: 'Resizing...',
  paused: (seconds: number) =>
    `Connection lost. Uploads are paused and start again by themselves${seconds > 0 ? ` (next try in ${seconds} s)` : ''}.`,
  resumed: 'Connection back. Uploads resumed.',
  keepOriginals: 'Keep originals',
  keepOriginalsHint: (edge: number) =>
    `Send these photos at full size. Otherwise photos larger than ${edge.toLocaleString('en-US')} px are ` +
    `made that size before they are sent (much faster on a slow connection).`,
  queued: 'Waiting',
  uploading: 'Uploading',
  done: 'Uploaded',
  failed: 'Failed',
  retry: 'Retry',
  retryAll: 'Retry failed',
  remove: 'Remove',
  removeAll: 'Remove all',
  total: (done: number, count: number) => `${done} of ${count} photos`,
  /** Copies (disease photos: the server compares each upload with the stored photos). */
  skippedCopy: 'Copy: left out',
  skippedCopies: (n: number) =>
    `${n} ${n === 1 ? 'photo was' : 'photos were'} left out: the same bytes as another photo of this entry (not counted).`,
  nearCopy: (distance: number) => `Near copy of another photo (${distance} bits)`,
  alsoIn: (name: string) => `Also a photo of ${name}`,
  flaggedCopies: (near: number, conflicts: number) =>
    [
      near > 0 ? `${near} ${near === 1 ? 'photo looks' : 'photos look'} like another photo of this entry` : '',
      conflicts > 0 ? `${conflicts} ${conflicts === 1 ? 'photo is' : 'photos are'} also a photo of another disease` : '',
    ]
      .filter(Boolean)
      .join('; ') + '. The training set keeps copies in one split and leaves out photos of two diseases.',
  timeLeft: (text: string) => `${text} left`,
  closeTitle: 'Stop uploading?',
  closeMessage: (uploading: number) =>
    `${uploading} ${uploading === 1 ? 'photo is' : 'photos are'} still uploading. If you close now, the uploads stop and the photos are not saved.`,
  discardTitle: 'Discard photos?',
  discardMessage: (n: number) =>
    `${n} uploaded ${n === 1 ? 'photo has' : 'photos have'} not been saved yet. If you close now, ${n === 1 ? 'it is' : 'they are'} discarded.`,
  keepUploading: 'Keep uploading',
  keepEditing: 'Keep editing',
  closeAnyway: 'Close and discard',
} as const;

/** The add form kept as a draft on the server (DRAFT_RETENTION_DAYS). */
export const DRAFT_TEXTS = {
  continueEntry: (uploaded: number, total: number) =>
    `Continue the unsaved entry (${uploaded.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} ${total === 1 ? 'photo' : 'photos'} uploaded)`,
  continueHint: (name: string, savedAt: string) =>
    `${name ? `"${name}", ` : ''}last kept ${savedAt}. It was not saved: the tab was closed, reloaded or lost its power or connection.`,
  continue: 'Continue',
  startOver: 'Start over',
  chooseAgain: (n: number) =>
    `Choose the same photos again (the folder or files you chose before) to upload the ` +
    `${n.toLocaleString('en-US')} not yet uploaded. Photos already uploaded are not sent again.`,
  chooseFiles: 'Choose the photos again',
  leaveOut: 'Leave them out',
  missing: 'Choose the file again',
  kept: 'Kept as a draft',
} as const;

/**
 * The order of a pest's or disease's photos in the edit dialog: the first photo is the main
 * photo, the one the card and the farmer app show. Photo numbers count from 1.
 */
export const PHOTO_ORDER_TEXTS = {
  mainPhoto: 'Main photo',
  makeMain: (n: number) => `Make photo ${n} the main photo`,
  moveEarlier: (n: number) => `Move photo ${n} earlier`,
  moveLater: (n: number) => `Move photo ${n} later`,
  handle: (n: number, count: number) => `Photo ${n} of ${count}. Drag it, or press the arrow keys, to move it.`,
  hint:
    'The first photo is the main photo: the card and the farmer app show it. ' +
    'Drag a photo or use its arrows to change the order; the new order is saved at once.',
  moved: (from: number, to: number, count: number) => `Photo ${from} moved to position ${to} of ${count}.`,
  madeMain: (from: number) => `Photo ${from} is now the main photo.`,
  saving: 'Saving the new order…',
  conflict: 'Someone else changed this entry meanwhile. The photos are shown as saved now; move the photo again.',
  failed: 'The new order could not be saved. The photos are shown as saved now.',
  notInEntry: "This photo is not one of this entry's photos.",
  positionOutside: (count: number) => `Choose a position from 1 to ${count}.`,
  ownPending: 'Your other change of this entry is waiting for review. Withdraw it before you change the photo order.',
  reviewAction: 'Change the photo order',
  audit: {
    moved: (noun: string, name: string, from: number, to: number, count: number) =>
      `Moved photo ${from} of ${noun} "${name}" to position ${to} of ${count}`,
    madeMain: (noun: string, name: string, from: number) => `Made photo ${from} the main photo of ${noun} "${name}"`,
    reviewed: (noun: string, name: string, moves: number) =>
      `Changed the photo order of ${noun} "${name}" (${moves} ${moves === 1 ? 'move' : 'moves'})`,
  },
} as const;
