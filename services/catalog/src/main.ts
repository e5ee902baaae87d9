import { startTracing } from '@partner/tracing';

// First, before anything traced is imported: the instrumentations patch modules as they load.
await startTracing('catalog');
await import('./serve.js');
