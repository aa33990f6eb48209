import { varietiesReviewed } from './reviewed.js';
import { varietiesTranslated } from './translated.js';
import { varietiesVersioned } from './versioned.js';

/** Rice varieties as the hubs are given them (server/modules/collections.ts). */
export const varietiesCollection = { versioned: varietiesVersioned, translated: varietiesTranslated, reviewed: varietiesReviewed };
