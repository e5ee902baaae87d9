import { startTracing } from '@partner/tracing';

// First, before anything traced is imported: the instrumentations patch modules as they load.
await startTracing('dashboard');
await import('./serve.js');
