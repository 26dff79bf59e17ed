import { z } from 'zod';

// In a browser, zod would compile its object parsers with `new Function`, which the site's
// Content-Security-Policy forbids (no eval): there it parses without compiling. The server keeps the
// compiled parsers. Imported first, so it applies before any schema is built.
if ('window' in globalThis) z.config({ jitless: true });
