import os from 'node:os';

/**
 * libuv's thread pool runs argon2 (through @node-rs/argon2), file reads and zlib. Its size is read
 * from UV_THREADPOOL_SIZE once, when the pool first starts, so main.ts imports this module before
 * anything else. Argon2 may use one thread per CPU (see passwords.ts); two more threads stay free
 * so that static files and logs never wait behind password checks.
 */
export const ARGON2_CONCURRENCY = Math.max(1, os.availableParallelism());
export const THREAD_POOL_SIZE = ARGON2_CONCURRENCY + 2;

process.env.UV_THREADPOOL_SIZE ??= String(THREAD_POOL_SIZE);
