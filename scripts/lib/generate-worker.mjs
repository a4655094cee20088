// Entry of the generator worker: registers tsx in the worker thread, then loads the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./generate-worker.ts');
