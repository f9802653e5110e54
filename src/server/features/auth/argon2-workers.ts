import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { concurrencyLimit } from '../../concurrency-limit.ts';

/**
 * argon2 runs on worker threads of its own, each at a lower CPU priority (decision 029). A password
 * or PIN check is 15 ms of one CPU; at normal priority, a burst of them takes the CPUs from the event
 * loop and from PostgreSQL, including from transactions that hold the locks every customer's money
 * request shares, and the others then queue behind those. At a lower priority, argon2 takes only the
 * CPU time nothing else wants.
 */

/**
 * How much nicer than the rest of the process the argon2 threads run (Linux: niceness 0 is normal, 19
 * the lowest; lowering one's own needs no privilege). Added to the process's own niceness, so that under
 * `nice` the threads still run below the event loop, never above it.
 */
export const ARGON2_THREAD_NICENESS_INCREMENT = 10;

/** The niceness a thread gets on Linux when the process runs at `processNiceness`. */
export function argon2ThreadNiceness(processNiceness: number): number {
  return Math.min(19, processNiceness + ARGON2_THREAD_NICENESS_INCREMENT);
}

export type Argon2Options = { algorithm: number; memoryCost: number; timeCost: number; parallelism: number };
type Argon2Job = { kind: 'hash'; secret: string; options: Argon2Options } | { kind: 'verify'; storedHash: string; secret: string };
type Argon2Reply = { ok: true; result: string | boolean } | { ok: false; message: string };

/*
 * The worker's code is CommonJS text run with `eval`, so that it runs the same from the sources (tsx,
 * the tests) and from the build, where a separate worker file would need a loader or a copy step. It
 * loads @node-rs/argon2 from the path the main thread resolved, lowers its own thread's priority on
 * Linux (setpriority with a thread id applies to that thread alone), then answers jobs one at a time.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const argon2 = require(workerData.argon2Path);
if (process.platform === 'linux') {
  try {
    const threadId = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
    require('node:os').setPriority(threadId, workerData.niceness);
  } catch {
    // Without /proc the thread keeps the normal priority: checks stay correct, only less polite.
  }
}
parentPort.on('message', (job) => {
  try {
    const result = job.kind === 'hash' ? argon2.hashSync(job.secret, job.options) : argon2.verifySync(job.storedHash, job.secret);
    parentPort.postMessage({ ok: true, result });
  } catch (error) {
    parentPort.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});
`;

const argon2Path = createRequire(import.meta.url).resolve('@node-rs/argon2');

/** An argon2 thread died with the job: a fault of ours, never an answer about the secret. */
export class Argon2WorkerGone extends Error {}

interface Pending {
  resolve(value: string | boolean): void;
  reject(error: Error): void;
}

/**
 * `size` argon2 threads at most, started on first use, each running one job at a time; further jobs
 * wait here, in order. A thread keeps the process alive only while it has a job; one that dies fails
 * its job and is replaced by the next job.
 */
export class Argon2Workers {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Pending>();
  private readonly withFreeThread: <T>(work: () => Promise<T>) => Promise<T>;

  constructor(private readonly size: number) {
    this.withFreeThread = concurrencyLimit(size);
  }

  hash(secret: string, options: Argon2Options): Promise<string> {
    return this.withFreeThread(() => this.run({ kind: 'hash', secret, options })) as Promise<string>;
  }

  verify(storedHash: string, secret: string): Promise<boolean> {
    return this.withFreeThread(() => this.run({ kind: 'verify', storedHash, secret })) as Promise<boolean>;
  }

  private run(job: Argon2Job): Promise<string | boolean> {
    const worker = this.idle.pop() ?? this.start();
    return new Promise((resolve, reject) => {
      this.busy.set(worker, { resolve, reject });
      worker.ref();
      worker.postMessage(job);
    });
  }

  private start(): Worker {
    assert.ok(this.idle.length + this.busy.size < this.size, `more than ${this.size} argon2 jobs at once`);
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { argon2Path, niceness: argon2ThreadNiceness(os.getPriority()) } });
    worker.on('message', (reply: Argon2Reply) => {
      const job = this.busy.get(worker);
      assert.ok(job, 'an argon2 worker answered without a job');
      this.busy.delete(worker);
      worker.unref();
      this.idle.push(worker);
      if (reply.ok) job.resolve(reply.result);
      else job.reject(new Error(reply.message));
    });
    let gone = false;
    const fail = (error: Error) => {
      if (gone) return;
      gone = true;
      const job = this.busy.get(worker);
      this.busy.delete(worker);
      const index = this.idle.indexOf(worker);
      if (index !== -1) this.idle.splice(index, 1);
      job?.reject(error);
    };
    worker.once('error', (error) => fail(new Argon2WorkerGone('an argon2 worker failed', { cause: error })));
    worker.once('exit', (code) => fail(new Argon2WorkerGone(`an argon2 worker exited with code ${code}`)));
    return worker;
  }
}
