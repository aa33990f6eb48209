import type { PhotoJob, PhotoReply } from './photo-worker';

/**
 * Photos made ready to send in workers (photo-worker.ts): HEIC to JPEG, and larger than
 * PHOTO_MAX_EDGE to that size, so a ~3 MB phone photo leaves as a few hundred KB. A small pool
 * of workers, each doing one photo at a time, bounds the memory full-size decodes take.
 */
interface Waiting {
  job: PhotoJob;
  resolve(reply: PhotoReply): void;
}
interface Slot {
  worker: Worker;
  busy: Waiting | null;
}

const POOL_SIZE = Math.min(2, Math.max(1, (globalThis.navigator?.hardwareConcurrency ?? 2) >> 1));
let slots: Slot[] | null = null;
const queue: Waiting[] = [];
let nextId = 1;

function pool(): Slot[] {
  slots ??= Array.from({ length: POOL_SIZE }, () => {
    const slot: Slot = { worker: new Worker(new URL('./photo-worker.ts', import.meta.url), { type: 'module' }), busy: null };
    const finish = (reply: PhotoReply) => {
      const waiting = slot.busy;
      slot.busy = null;
      waiting?.resolve(reply);
      drain();
    };
    slot.worker.onmessage = (event: MessageEvent<PhotoReply>) => finish(event.data);
    slot.worker.onerror = () => finish({ id: slot.busy?.job.id ?? 0, kind: 'failed', message: 'The photo could not be read.' });
    return slot;
  });
  return slots;
}

function drain(): void {
  for (const slot of pool()) {
    if (slot.busy || queue.length === 0) continue;
    slot.busy = queue.shift()!;
    slot.worker.postMessage(slot.busy.job);
  }
}

export function isHeic(file: File): boolean {
  return /^image\/hei[cf](-sequence)?$/i.test(file.type) || /\.(heic|heif)$/i.test(file.name);
}

const canWork = () => typeof Worker !== 'undefined' && typeof OffscreenCanvas !== 'undefined';

function run(job: Omit<PhotoJob, 'id'>): Promise<PhotoReply> {
  return new Promise((resolve) => {
    queue.push({ job: { ...job, id: nextId++ }, resolve });
    drain();
  });
}

const asJpeg = (file: File, blob: Blob) =>
  new File([blob], file.name.replace(/\.[^.]+$/, '') + '.jpg', { type: 'image/jpeg', lastModified: file.lastModified });

/**
 * The file to send: HEIC as JPEG; a photo larger than `maxEdge` (0: any size) as a JPEG at that
 * size. A photo this browser cannot decode is sent as it is (the server checks and sizes it);
 * a HEIC it cannot decode is an error (the server refuses HEIC).
 */
export async function preparePhoto(file: File, maxEdge: number, quality: number): Promise<File> {
  const heic = isHeic(file);
  if (!canWork()) {
    if (heic) throw new Error('This browser cannot convert HEIC photos.');
    return file;
  }
  if (!heic && maxEdge <= 0) return file;
  const reply = await run({ file, heic, maxEdge, quality });
  if (reply.kind === 'jpeg') return asJpeg(file, reply.blob);
  if (reply.kind === 'failed' && heic) throw new Error(reply.message);
  return file;
}
