import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../../config.js';
import { createBackup, type BackupManifest } from '../../../platform/storage/backup.js';

/** A backup folder's name: sorts by time, and only these are removed by retention. */
const NAME = /^palayan-\d{4}-\d{2}-\d{2}T[\d-]+Z$/;
export const backupName = (at: Date) => `palayan-${at.toISOString().replace(/[:.]/g, '-')}`;

function listFiles(dir: string, base = dir): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name), base) : [path.relative(base, path.join(dir, e.name))]));
}

async function s3Target(config: Config, target: string) {
  const [, bucket = '', prefix = ''] = /^s3:\/\/([^/]+)\/?(.*)$/.exec(target) ?? [];
  const { S3Storage } = await import('../../../platform/storage/s3-storage.js');
  const store = new S3Storage({ ...(config.s3 ?? { region: process.env.S3_REGION || 'us-east-1', forcePathStyle: false }), bucket });
  return { store, bucket, prefix: prefix.replace(/\/+$/, '') };
}

/**
 * Makes one backup into the target: straight into a folder, or made in DATA_DIR/tmp and sent
 * to the bucket file by file, then removed here. Then only the newest `keep` stay.
 */
export async function backupTo(
  config: Config,
  target: string,
  at: Date,
  keep: number,
): Promise<{ location: string; manifest: BackupManifest }> {
  const name = backupName(at);
  if (!target.startsWith('s3://')) {
    fs.mkdirSync(target, { recursive: true, mode: 0o700 });
    const manifest = await createBackup(config, path.join(target, name));
    for (const old of fs
      .readdirSync(target)
      .filter((n) => NAME.test(n))
      .sort()
      .slice(0, -keep))
      fs.rmSync(path.join(target, old), { recursive: true, force: true });
    return { location: path.join(target, name), manifest };
  }
  const staging = path.join(config.dataDir, 'tmp', name);
  const { store, bucket, prefix } = await s3Target(config, target);
  try {
    const manifest = await createBackup(config, staging);
    const base = prefix ? `${prefix}/${name}` : name;
    for (const rel of listFiles(staging))
      await store.put(`${base}/${rel.split(path.sep).join('/')}`, fs.createReadStream(path.join(staging, rel)));
    const names = new Set<string>();
    for await (const { key } of store.list(prefix ? `${prefix}/` : '')) {
      const folder = key.slice(prefix ? prefix.length + 1 : 0).split('/')[0]!;
      if (NAME.test(folder)) names.add(folder);
    }
    for (const old of [...names].sort().slice(0, -keep)) {
      for await (const { key } of store.list(`${prefix ? `${prefix}/` : ''}${old}/`)) await store.delete(key);
    }
    return { location: `s3://${bucket}/${base}`, manifest };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    store.close();
  }
}
