import fs from 'node:fs';
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

async function importProblems(filePath: string, source: string, ruleId = 'no-restricted-imports'): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport const used = imported;\n`, { filePath: path.join(root, filePath) });
  return (result?.messages ?? []).filter((message) => message.ruleId === ruleId).map((message) => message.message);
}

/** ESLint puts the import and its pattern before the configured message. */
function expectOneProblem(problems: string[], message: string) {
  expect(problems).toHaveLength(1);
  expect(problems[0]).toContain(message);
}

// The first lint loads the config and the TypeScript parser: seconds on a quiet machine, over a
// minute on a shared one at load 15. The bound is against a hang, not a measure of speed.
describe('lint boundaries', { timeout: 240_000 }, () => {
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
    expect(
      await importProblems('src/server/features/deposits/boundary-fixture.ts', "import { imported } from '../../platform/sessions/repository.ts';"),
    ).toEqual([]);
  });

  it('refuse the platform importing a feature', async () => {
    expectOneProblem(
      await importProblems('src/server/platform/sessions/boundary-fixture.ts', "import { imported } from '../../features/wallet/service.ts';"),
      'src/server/platform may not import a feature: features use the platform, not the other way round.',
    );
  });

  it("refuse another feature's repository under any name ending in repository", async () => {
    expectOneProblem(
      await importProblems('src/server/features/wallet/boundary-fixture.ts', "import { imported } from '../deposits/chain-repository.ts';"),
      "Use the other feature's service: src/server/features/wallet may not import another feature's repository.",
    );
  });

  it("refuse a feature's module handing its repository's code on, re-exported or imported and exported", async () => {
    const message = "Do not hand a repository's code on: write a service function with the rule in it.";
    const rule = 'boundaries/no-repository-reexport';
    expectOneProblem(
      await importProblems('src/server/features/wallet/service.ts', "export { imported } from './repository.ts';\nconst imported = 1;", rule),
      message,
    );
    expectOneProblem(
      await importProblems('src/server/features/wallet/service.ts', "import { found } from './repository.ts';\nexport { found };\nconst imported = 1;", rule),
      message,
    );
    expectOneProblem(
      await importProblems('src/server/features/wallet/service.ts', "export * from './wallet-repository.ts';\nconst imported = 1;", rule),
      message,
    );
    // Using the repository inside the service is what a service is for.
    expect(await importProblems('src/server/features/wallet/service.ts', "import { found } from './repository.ts';\nconst imported = found;", rule)).toEqual(
      [],
    );
  });

  it("refuse a web feature importing another feature's inner module, and let it use the other's index.ts", async () => {
    expectOneProblem(
      await importProblems('src/web/features/wallet/boundary-fixture.ts', "import { imported } from '../auth/api.ts';"),
      "Import another feature through its index.ts: src/web/features/wallet may use only what the other feature's index.ts offers.",
    );
    expectOneProblem(
      await importProblems('src/web/features/admin/components/boundary-fixture.ts', "import { imported } from '../../wallet/format.ts';"),
      "Import another feature through its index.ts: src/web/features/admin may use only what the other feature's index.ts offers.",
    );
    expect(await importProblems('src/web/features/wallet/boundary-fixture.ts', "import { imported } from '../auth/index.ts';")).toEqual([]);
    expect(await importProblems('src/web/features/wallet/boundary-fixture.ts', "import { imported } from './api.ts';")).toEqual([]);
    expect(await importProblems('src/web/features/wallet/boundary-fixture.ts', "import { imported } from '../../components/ui/button.tsx';")).toEqual([]);
  });

  it('refuse the same imports written as dynamic import(), which no-restricted-imports does not read', async () => {
    const rule = 'boundaries/no-restricted-dynamic-imports';
    expectOneProblem(
      await importProblems('src/web/features/landing/boundary-fixture.ts', "const imported = await import('../install/install-prompt.ts');", rule),
      "Import another feature through its index.ts: src/web/features/landing may use only what the other feature's index.ts offers.",
    );
    expectOneProblem(
      await importProblems('src/server/features/wallet/boundary-fixture.ts', 'const imported = await import(`../deposits/repository.ts`);', rule),
      "Use the other feature's service: src/server/features/wallet may not import another feature's repository.",
    );
    expectOneProblem(
      await importProblems('src/web/components/layout/boundary-fixture.tsx', "const imported = await import('../../features/auth/index.ts');", rule),
      'Components are used by features and use none: pass what a feature knows in as props.',
    );
    expectOneProblem(
      await importProblems('src/web/features/wallet/boundary-fixture.ts', "const imported = await import('../../../server/app.ts');", rule),
      'The web app talks to the server over HTTP only: import from src/shared, never from src/server.',
    );
    expect(await importProblems('src/web/features/landing/boundary-fixture.ts', "const imported = await import('../install/index.ts');", rule)).toEqual([]);
    expect(await importProblems('src/web/features/landing/boundary-fixture.ts', "const imported = await import('./how-it-works.tsx');", rule)).toEqual([]);
  });

  it('refuse layout components importing a feature', async () => {
    expectOneProblem(
      await importProblems('src/web/components/layout/boundary-fixture.tsx', "import { imported } from '../../features/auth/api.ts';"),
      'Components are used by features and use none: pass what a feature knows in as props.',
    );
  });

  it('refuse an import cycle', async () => {
    // A cycle needs files on disk that import each other: two, planted for this test and removed after it.
    const directory = fs.mkdtempSync(path.join(root, 'src/web/lib/lint-cycle-fixture-'));
    try {
      fs.writeFileSync(path.join(directory, 'first.ts'), "import { second } from './second.ts';\nexport const first = (): number => second() + 1;\n");
      fs.writeFileSync(path.join(directory, 'second.ts'), "import { first } from './first.ts';\nexport const second = (): number => first() - 1;\n");
      const [result] = await eslint.lintFiles([path.join(directory, 'first.ts')]);
      expect((result?.messages ?? []).filter((message) => message.ruleId === 'import-x/no-cycle').map((message) => message.message)).toEqual([
        'Dependency cycle detected',
      ]);
    } finally {
      fs.rmSync(directory, { recursive: true, force: true });
    }
  });

  it('refuse Node APIs and server code in src/shared', async () => {
    expectOneProblem(
      await importProblems('src/shared/boundary-fixture.ts', "import { imported } from 'node:crypto';"),
      'src/shared runs in the browser too: no Node APIs.',
    );
    expectOneProblem(
      await importProblems('src/shared/boundary-fixture.ts', "import { imported } from '../server/app.ts';"),
      'src/shared is used by the server and the web app alike: it imports neither.',
    );
  });
});
