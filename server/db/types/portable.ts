/**
 * Portable storage on both engines: timestamps are ISO-8601 UTC text, booleans are 0/1
 * integers, lists and objects are JSON text. Repositories convert at the boundary.
 */
export type Bool = number;
