import { z } from 'zod';

// The console's Content-Security-Policy forbids eval (script-src 'self'). Zod's compiled
// object parsers probe for it with `new Function`, which the browser reports as a policy
// violation (Lighthouse's best-practices "issues"); in the browser they stay off. The server
// has no such policy and keeps them: they are faster.
if (typeof document !== 'undefined') z.config({ jitless: true });

export { z };
