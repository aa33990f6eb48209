import type { StagedImage } from '../../../common/schemas/catalog';

/**
 * 'skipped': the same bytes as another photo of the entry, so left out (and not counted);
 * 'missing': a photo of a continued draft not uploaded yet, waiting for its file to be chosen again.
 */
export type UploadStatus = 'queued' | 'converting' | 'resizing' | 'uploading' | 'done' | 'failed' | 'skipped' | 'missing';

export interface UploadItem {
  key: number;
  file: File;
  /** The file as the user chose it (a draft matches files again by name, size and date). */
  source: { name: string; size: number; lastModified: number };
  name: string;
  size: number;
  status: UploadStatus;
  /** Bytes of this file sent so far. */
  loaded: number;
  imageId: string | null;
  error: string | null;
  sha256: string | null;
  /** Stored photos the server found this one a copy of (disease photos). */
  similar: StagedImage['similar'];
  /** A continued draft's uploaded photo: its thumbnail (there is no file in this tab). */
  thumbUrl?: string | null;
}

export interface RestoredPhoto {
  id: string | null;
  name: string;
  size: number;
  lastModified: number;
  thumbUrl: string | null;
}

/** The same file as the one the item was made from (a continued draft matches chosen files so). */
export const sameFile = (item: UploadItem, file: File) =>
  item.source.name === file.name && item.source.size === file.size && item.source.lastModified === file.lastModified;
