/** Texts of the scheduled-backup notice super admins see on the dashboard (ours). */
export const BACKUP_TEXTS = {
  heading: 'Backups',
  off:
    'Scheduled backups are off: nothing copies the records and photos off this machine. Ask your IT officer to ' +
    'set up nightly backups to another disk or a storage service (the BACKUP_TARGET setting, described in docs/DEPLOY.md).',
  none: 'No scheduled backup has finished yet.',
  last: (age: string, location: string) => `Last good backup ${age}, to ${location}.`,
  schedule: (hours: number, keep: number) => `Every ${hours} ${hours === 1 ? 'hour' : 'hours'}; the newest ${keep} kept.`,
  stale: (hours: number) => `No good backup in the last ${2 * hours} hours: check the server's log and the backup target.`,
  failed: (error: string) => `The last backup failed: ${error}`,
} as const;
