import os from 'node:os';

/**
 * libuv's thread pool runs argon2 (through @node-rs/argon2), file reads and zlib. Its size is read
 * from UV_THREADPOOL_SIZE once, when the pool first starts, and Node's ES module loader starts it
 * while reading the app's modules, before any of the app's code runs: the variable only counts when
 * it is set before Node starts (`npm start` sets it to CPUs + 2). Otherwise the pool has libuv's
 * default size, and argon2's concurrency is fitted to the pool that exists.
 */
const LIBUV_DEFAULT_POOL_SIZE = 4;
/** libuv's own ceiling on the pool size. */
const LIBUV_MAXIMUM_POOL_SIZE = 1024;
const configured = Number(process.env.UV_THREADPOOL_SIZE);

export const THREAD_POOL_SIZE = Number.isSafeInteger(configured) && configured > 0 ? Math.min(configured, LIBUV_MAXIMUM_POOL_SIZE) : LIBUV_DEFAULT_POOL_SIZE;
/** At most one argon2 per CPU (see passwords.ts), and two pool threads always free, so that static files and logs never wait behind password checks. */
export const ARGON2_CONCURRENCY = Math.max(1, Math.min(os.availableParallelism(), THREAD_POOL_SIZE - 2));
