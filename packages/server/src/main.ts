import { enableCompileCache } from 'node:module';

/**
 * The service's entry (`npm start`). Node's compile cache goes on before anything else loads: the
 * server imports about a thousand modules, and with their bytecode (and our TypeScript, already
 * stripped) kept on disk from the last start, loading them takes a fifth less time
 * (docs/embedded.md). The cache lives in NODE_COMPILE_CACHE, or a folder in the system's temporary
 * directory; NODE_DISABLE_COMPILE_CACHE=1 turns it off. Entries are keyed by each file's contents,
 * so an edited file is compiled afresh. start.ts is the composition root.
 */
enableCompileCache();
await import('./start.ts');
