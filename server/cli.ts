/**
 * The operations command, the same in a checkout and in the production bundle (the Docker image
 * holds only build/):
 *   node build/server/cli.js <verb> [options]      (production bundle)
 *   npx tsx server/cli.ts <verb> [options]          (a checkout)
 * Each verb is one file of server/cli/ that reads its own options.
 */
const VERBS = {
  backup: 'a consistent snapshot of the database and files (--out DIR)',
  restore: 'puts a backup back (DIR [--force]; stop the server first)',
  'audit-verify': 'checks the audit chain (--archive FILE, --anchor FILE)',
  import: 'imports a Firestore export (FILE [--dry-run] [--no-fetch])',
  'create-admin': 'adds an account (--username --password --email --fullname --role)',
  'migrate-storage': 'moves stored photos from the local folder into S3 (--to s3 [--from DIR] [--concurrency N])',
  'migrate-photos': 'removes location and identifying metadata from stored photos not yet cleaned (--strip-location)',
  'fingerprint-photos': 'the perceptual hash and quality measures of stored photos that have none (resumable)',
} as const;

function usage(): string {
  const width = Math.max(...Object.keys(VERBS).map((v) => v.length));
  return [
    'Usage: node build/server/cli.js <verb> [options]',
    '',
    ...Object.entries(VERBS).map(([verb, what]) => `  ${verb.padEnd(width)}  ${what}`),
  ].join('\n');
}

const verb = process.argv[2];
if (!verb || verb === '--help' || verb === 'help') {
  console.log(usage());
} else if (!Object.hasOwn(VERBS, verb)) {
  console.error(`Unknown command: ${verb}\n\n${usage()}`);
  process.exitCode = 2;
} else {
  // The verb's own file parses process.argv from its options on.
  process.argv.splice(2, 1);
  await import(new URL(`./cli/${verb}${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url).href);
}
