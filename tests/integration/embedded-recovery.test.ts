import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedDatabase } from '../../src/server/db/embedded.ts';
import { query } from '../fixtures/postgres-query.ts';

const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'rupeedesk-embedded-recovery-'));
afterAll(() => fs.rmSync(dataDirectory, { recursive: true, force: true }));

function postmasterPid(): number {
  return Number(fs.readFileSync(path.join(dataDirectory, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('embedded PostgreSQL after a crash of the app', () => {
  it('stops the PostgreSQL a server killed with SIGKILL left running, starts again and keeps the data', async () => {
    const server = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, '../fixtures/embedded-server-process.ts'), dataDirectory], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const serverUrl = await new Promise<string>((resolve, reject) => {
      let output = '';
      server.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('\n')) resolve(output.trim());
      });
      server.once('exit', (code) => reject(new Error(`the server process exited with ${code}`)));
    });
    await query(serverUrl, "create table kept (value text); insert into kept values ('survives kill -9')");
    const orphan = postmasterPid();
    server.kill('SIGKILL');
    await new Promise((resolve) => server.once('exit', resolve));
    expect(isAlive(orphan)).toBe(true);

    const restarted = await startEmbeddedDatabase({ dataDirectory, purpose: 'server', log: () => undefined });
    try {
      expect(isAlive(orphan)).toBe(false);
      expect(postmasterPid()).not.toBe(orphan);
      expect((await query(restarted.serverUrl, 'select value from kept')).rows).toEqual([{ value: 'survives kill -9' }]);
    } finally {
      await restarted.stop();
    }
  }, 60_000);

  it("shows PostgreSQL's own reason when it cannot start", async () => {
    const configFile = path.join(dataDirectory, 'postgres', 'postgresql.conf');
    const original = fs.readFileSync(configFile, 'utf8');
    fs.appendFileSync(configFile, '\nshared_buffers = lots\n');
    try {
      await expect(startEmbeddedDatabase({ dataDirectory, purpose: 'server', log: () => undefined })).rejects.toThrow(
        /^The embedded PostgreSQL server could not start: FATAL: configuration file ".*postgresql\.conf" contains errors/,
      );
      expect(fs.existsSync(path.join(dataDirectory, 'postgres.lock'))).toBe(false);
    } finally {
      fs.writeFileSync(configFile, original);
    }
  });
});
