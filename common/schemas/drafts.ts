import { z } from './zod.js';
import { LIMITS } from '../limits.js';

/** A chosen photo of a draft: its staged photo once uploaded, and the file it came from. */
export const draftPhotoSchema = z.object({
  id: z.string().min(1).max(64).nullable(),
  name: z.string().max(255),
  size: z.number().int().min(0).max(1e12),
  lastModified: z.number().min(0).max(1e14),
});

/** The add form as typed: nothing is required yet (a draft may be half filled). */
export const draftFieldsSchema = z.object({
  name: z.string().max(LIMITS.maxShortTextLength).default(''),
  scientificName: z.string().max(LIMITS.maxShortTextLength).default(''),
  localName: z.string().max(LIMITS.maxShortTextLength).default(''),
  description: z.string().max(LIMITS.maxTextLength).default(''),
  cause: z.string().max(LIMITS.maxTextLength).default(''),
  symptoms: z.string().max(LIMITS.maxTextLength).default(''),
  treatments: z.string().max(LIMITS.maxTextLength).default(''),
  affectedParts: z.array(z.string().max(200)).max(50).default([]),
  isTrainingClass: z.boolean().default(false),
});

export const draftInputSchema = z.object({
  fields: draftFieldsSchema,
  photos: z.array(draftPhotoSchema).max(2000),
});
export type DraftInput = z.infer<typeof draftInputSchema>;

export const draftSchema = z.object({
  fields: draftFieldsSchema,
  photos: z.array(draftPhotoSchema.extend({ thumbUrl: z.string().nullable() })),
  uploaded: z.number().int(),
  updatedAt: z.string(),
  /** When the draft is removed if it is not continued. */
  expiresAt: z.string(),
});
export type Draft = z.infer<typeof draftSchema>;
