import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirectoryInUseError, startEmbeddedDatabase } from '../../src/server/db/embedded.ts';

const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'rupeedesk-embedded-'));
afterAll(() => fs.rmSync(dataDirectory, { recursive: true, force: true }));

async function query(url: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

describe('embedded PostgreSQL in DATA_DIR', () => {
  it('refuses a second server on the same data directory, lets a command share it, and keeps data across restarts', async () => {
    const server = await startEmbeddedDatabase({ dataDirectory, purpose: 'server', log: () => undefined });
    try {
      expect(server.serverUrl).toMatch(/^postgres:\/\/postgres:[^@]+@127\.0\.0\.1:\d+\/postgres$/);
      expect(server.serverUrl).not.toContain(':5432/');
      await query(server.serverUrl, 'create table kept (value text)');
      await query(server.serverUrl, "insert into kept values ('survives a restart')");

      await expect(startEmbeddedDatabase({ dataDirectory, purpose: 'server', log: () => undefined })).rejects.toThrow(DataDirectoryInUseError);
      await expect(startEmbeddedDatabase({ dataDirectory, purpose: 'server', log: () => undefined })).rejects.toThrow(/Another server \(process \d+\) is already running/);

      const tool = await startEmbeddedDatabase({ dataDirectory, purpose: 'tool', log: () => undefined });
      expect(tool.owned).toBe(false);
      expect(tool.serverUrl).toBe(server.serverUrl);
      expect((await query(tool.serverUrl, 'select count(*)::int as count from kept')).rows[0]).toEqual({ count: 1 });
    } finally {
      await server.stop();
    }
    expect(fs.existsSync(path.join(dataDirectory, 'postgres.lock'))).toBe(false);

    const restarted = await startEmbeddedDatabase({ dataDirectory, purpose: 'server', log: () => undefined });
    try {
      expect((await query(restarted.serverUrl, 'select value from kept')).rows).toEqual([{ value: 'survives a restart' }]);
    } finally {
      await restarted.stop();
    }
  });

  it('replaces the lock of a process that died', async () => {
    fs.writeFileSync(path.join(dataDirectory, 'postgres.lock'), JSON.stringify({ pid: 999_999, port: 1, purpose: 'server' }));
    const server = await startEmbeddedDatabase({ dataDirectory, purpose: 'server', log: () => undefined });
    try {
      expect(JSON.parse(fs.readFileSync(path.join(dataDirectory, 'postgres.lock'), 'utf8')).pid).toBe(process.pid);
    } finally {
      await server.stop();
    }
  });

  it('keeps the generated database password private to the owner', () => {
    expect(fs.statSync(path.join(dataDirectory, 'secrets.json')).mode & 0o777).toBe(0o600);
  });
});
