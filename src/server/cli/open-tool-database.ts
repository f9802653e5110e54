import { ConfigurationError, loadConfig } from '../env.ts';
import { openDatabase, type DatabaseRuntime } from '../runtime.ts';

/** Opens the app's database for a command: the running embedded server, or one started for the command. */
export async function openToolDatabase(): Promise<DatabaseRuntime> {
  try {
    return await openDatabase(loadConfig(), 'tool', () => undefined);
  } catch (error) {
    if (error instanceof ConfigurationError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}
