import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { createDb } from '../db/connection.js';
import { migrateToLatest } from '../db/migrate.js';
import { createAccount } from '../modules/identity/accounts/index.js';
import { ROLES } from '../../common/permissions.js';

const usage = 'Usage: npm run create-admin -- --username U --password P --email E --fullname "F" --role ADMIN|SYSTEM_ADMIN';

const { values } = parseArgs({
  options: {
    username: { type: 'string' },
    password: { type: 'string' },
    email: { type: 'string' },
    fullname: { type: 'string' },
    role: { type: 'string', default: 'ADMIN' },
  },
});

if (!values.username || !values.password || !values.fullname) {
  console.error(usage);
  process.exit(2);
}
if (!(ROLES as readonly string[]).includes(values.role!)) {
  console.error(`--role must be ADMIN or SYSTEM_ADMIN\n${usage}`);
  process.exit(2);
}

const db = createDb(loadConfig());
try {
  await migrateToLatest(db);
  const id = await createAccount(
    db,
    {
      username: values.username,
      password: values.password,
      email: values.email ?? null,
      fullname: values.fullname,
      role: values.role!,
    },
    null,
  );
  console.log(`Created ${values.role} account "${values.username}" (${id}).`);
} catch (err) {
  const message = err instanceof Error ? err.message : String(err);
  console.error(/unique|UNIQUE/.test(message) ? 'Username or email is already in use.' : message);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
