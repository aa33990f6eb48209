/** The modules' import path of the background timer, which lives in platform/background/jobs.ts. */
export { scheduleJob } from '../background/jobs.js';
