import { z } from './zod.js';

export const sessionItemSchema = z.object({
  id: z.string(),
  /** "Chrome on Windows", read from the user agent. */
  device: z.string(),
  ip: z.string().nullable(),
  signedInAt: z.string(),
  lastActiveAt: z.string(),
  /** The session of the request that asked. */
  current: z.boolean(),
});

export const sessionListSchema = z.object({ items: z.array(sessionItemSchema) });
export type SessionList = z.infer<typeof sessionListSchema>;

export const sessionIdParamsSchema = z.object({ sessionId: z.string().min(1).max(100) });
export const accountSessionParamsSchema = z.object({ id: z.string().min(1).max(100), sessionId: z.string().min(1).max(100) });
export const endedCountSchema = z.object({ ended: z.number() });
