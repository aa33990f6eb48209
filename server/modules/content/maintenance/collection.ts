import { optionListsReviewed } from './reviewed.js';
import { optionListsTranslated } from './translated.js';
import { optionListsVersioned } from './versioned.js';

/** The option lists the farmer app shows, as the hubs are given them (server/modules/collections.ts). */
export const optionListsCollection = { versioned: optionListsVersioned, translated: optionListsTranslated, reviewed: optionListsReviewed };
