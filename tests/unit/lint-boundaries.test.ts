import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

// The project's own eslint.config.js, with the type-aware rules off: the fixtures are not files
// of a TypeScript project, and the import boundaries need no types.
const eslint = new ESLint({
  cwd: root,
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/switch-exhaustiveness-check': 'off' },
  },
});

async function importProblems(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport const used = imported;\n`, { filePath: path.join(root, filePath) });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

/** ESLint puts the import and its pattern before the configured message. */
function expectOneProblem(problems: string[], message: string) {
  expect(problems).toHaveLength(1);
  expect(problems[0]).toContain(message);
}

// The first lint loads the config and the TypeScript parser: seconds on a busy machine.
describe('lint boundaries', { timeout: 60_000 }, () => {
  it('refuse a web import of server code', async () => {
    const problems = await importProblems('src/web/features/wallet/boundary-fixture.ts', "import { imported } from '../../../server/app.ts';");
    expectOneProblem(problems, 'The web app talks to the server over HTTP only: import from src/shared, never from src/server.');
  });

  it('let the web import src/shared through its alias', async () => {
    expect(await importProblems('src/web/features/wallet/boundary-fixture.ts', "import { imported } from '#shared/money';")).toEqual([]);
  });

  it('refuse a relative climb into src/shared from the web, the server and the tests', async () => {
    const message = "Import src/shared through its alias: '#shared/money', not a relative path.";
    expectOneProblem(await importProblems('src/web/features/wallet/boundary-fixture.ts', "import { imported } from '../../../shared/money.ts';"), message);
    expectOneProblem(await importProblems('src/server/features/wallet/boundary-fixture.ts', "import { imported } from '../../../shared/money.ts';"), message);
    expectOneProblem(await importProblems('src/server/platform/boundary-fixture.ts', "import { imported } from '../../shared/money.ts';"), message);
    expectOneProblem(await importProblems('tests/unit/boundary-fixture.ts', "import { imported } from '../../src/shared/money.ts';"), message);
  });

  it('let src/shared import its own modules by relative path', async () => {
    expect(await importProblems('src/shared/contracts/boundary-fixture.ts', "import { imported } from '../money.ts';")).toEqual([]);
  });

  it("refuse a server feature importing another feature's repository", async () => {
    const problems = await importProblems('src/server/features/wallet/boundary-fixture.ts', "import { imported } from '../deposits/repository.ts';");
    expectOneProblem(problems, "Use the other feature's service: src/server/features/wallet may not import another feature's repository.");
  });

  it("let a feature use its own repository and another feature's service", async () => {
    expect(await importProblems('src/server/features/wallet/boundary-fixture.ts', "import { imported } from '../deposits/service.ts';")).toEqual([]);
    expect(await importProblems('src/server/features/deposits/boundary-fixture.ts', "import { imported } from './repository.ts';")).toEqual([]);
    expect(await importProblems('src/server/features/deposits/boundary-fixture.ts', "import { imported } from '../../platform/sessions/repository.ts';")).toEqual([]);
  });

  it('refuse Node APIs and server code in src/shared', async () => {
    expectOneProblem(await importProblems('src/shared/boundary-fixture.ts', "import { imported } from 'node:crypto';"), 'src/shared runs in the browser too: no Node APIs.');
    expectOneProblem(
      await importProblems('src/shared/boundary-fixture.ts', "import { imported } from '../server/app.ts';"),
      'src/shared is used by the server and the web app alike: it imports neither.',
    );
  });
});
