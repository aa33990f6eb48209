/** The header's Help: short answers to the office's usual questions (not in docs/PRODUCT.md). */
export const HELP_TEXTS = {
  title: 'Help',
  intro: 'Short answers to the questions the office asks most. For anything else, ask your super admin.',
  topics: [
    {
      title: 'Correct a variety that has empty fields',
      text:
        'Open it with Edit, change what you know and save. ' +
        'Fields that were already empty may stay empty. "Needs completing only" in the Filters lists the varieties that still lack something.',
    },
    {
      title: 'Find a record quickly',
      text: 'Press / to search the screen you are on. Sort a list by a column heading, and narrow Rice Varieties with Filters.',
    },
    {
      title: 'Photos of a pest or disease',
      text:
        "Add photos in the entry's form: they upload in the background and keep going on a slow connection. " +
        'Drag a photo, or use its arrows, to change the order: the first one is the main photo the farmer app shows.',
    },
    {
      title: 'Changes waiting for review',
      text: 'Where review is on, a change goes to Review first and reaches the farmer app only when a super admin approves it.',
    },
    {
      title: 'Deleted by mistake',
      text: 'A deleted record goes to the Trash. A super admin can restore it from the Trash tab of its screen.',
    },
    {
      title: 'Who changed what',
      text: 'History Logs lists every change, who made it and when (Manila time). Open an entry to see the fields before and after.',
    },
    {
      title: 'Signed out while typing',
      text:
        'A minute before the console signs you out for inactivity it asks whether you are still there: choose Stay signed in. ' +
        'A variety, pest or disease form keeps what you typed as a draft, and after signing in again you return to the screen you were on.',
    },
    {
      title: 'Your password',
      text:
        'Change it in Account Settings, in the menu under your name. ' +
        'If you forgot it, use "Forgot password?" on the sign-in screen, or ask your super admin.',
    },
  ],
  close: 'Close',
} as const;
