/** The live-event topic of the review queue. */
export const REVIEW_TOPIC = 'review';
