import { z } from 'zod';

// The server's Content-Security-Policy forbids eval, and zod probes for it when a schema is built
// (the probe alone is reported as a violation): its interpreted mode never probes.
z.config({ jitless: true });
