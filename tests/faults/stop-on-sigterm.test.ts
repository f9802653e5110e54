import { spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, serverEnvironment, startSharedPostgres, waitUntilReady, type SharedPostgres } from './support.ts';
import { findFreePort } from '../../src/server/db/embedded.ts';

let postgres: SharedPostgres;
beforeAll(async () => {
  postgres = await startSharedPostgres();
}, 120_000);
afterAll(async () => postgres?.close());

function portIsClosed(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

function keepAliveGet(agent: http.Agent | false, port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      })
      .on('error', reject);
  });
}

/** Asks /api/ready on fresh connections until it answers 503; a refused or reset connection fails the test. */
async function waitUntilDraining(port: number): Promise<void> {
  while ((await keepAliveGet(false, port, '/api/ready')) !== 503) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('npm start and SIGTERM', () => {
  it('answers every request sent after SIGTERM during the drain, then stops within 10 seconds while clients hold keep-alive connections and a live-update stream open', async () => {
    const port = await findFreePort();
    // `npm start` exactly as Docker, systemd or Kubernetes would run it; the signal goes to npm.
    const npm = spawn('npm', ['start', '--silent'], { cwd: ROOT, env: serverEnvironment(postgres, port, 'npm-start'), stdio: ['ignore', 'ignore', 'inherit'] });
    const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
    const agents = Array.from({ length: 5 }, () => new http.Agent({ keepAlive: true, keepAliveMsecs: 1_000 }));
    try {
      await waitUntilReady(`http://127.0.0.1:${port}`, 120_000);
      for (const agent of agents) expect(await keepAliveGet(agent, port, '/api/ready')).toBe(200);
      const stream = http.get({ host: '127.0.0.1', port, path: '/api/events', headers: { accept: 'text/event-stream' } });
      stream.on('error', () => undefined);
      await new Promise((resolve) => stream.once('response', resolve));

      const signalledAt = Date.now();
      npm.kill('SIGTERM');
      // Once /api/ready says 503, requests still arrive (the load balancer has not noticed yet): a burst on new
      // connections and one on each keep-alive connection opened before the signal; none is reset or refused.
      await waitUntilDraining(port);
      const burst = await Promise.all([
        ...Array.from({ length: 10 }, () => keepAliveGet(false, port, '/api/health')),
        ...agents.map((agent) => keepAliveGet(agent, port, '/api/health')),
      ]);
      expect(burst).toEqual(Array.from({ length: 15 }, () => 200));
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 12_000))]);
      const stoppedAfter = Date.now() - signalledAt;
      expect(npm.exitCode !== null || npm.signalCode !== null, 'npm exited').toBe(true);
      expect(stoppedAfter).toBeLessThan(10_000);
      // Nothing is left serving: the server itself stopped, not only npm.
      expect(await portIsClosed(port)).toBe(true);
      stream.destroy();
    } finally {
      for (const agent of agents) agent.destroy();
      if (npm.exitCode === null) npm.kill('SIGKILL');
    }
  }, 180_000);
});
