import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import base from '../../e2e/playwright.config';

/**
 * The latency benchmarks run on the e2e's throw-away Jupyter server (e2e/serve.py) and browser
 * settings; only the tests and the time limit differ. Figures, not pass/fail: see README.md.
 */
const E2E = join(__dirname, '..', '..', 'e2e');
process.env.CRANE_E2E_ROOT ??= join(E2E, '.work', `bench-${process.env.CRANE_E2E_PORT ?? 8899}`);

export default defineConfig({
  ...base,
  testDir: __dirname,
  testMatch: '*.bench.ts',
  timeout: 30 * 60_000,
  retries: 0,
  outputDir: join(E2E, 'test-results-bench'),
  reporter: [['list']],
  webServer: { ...(base.webServer as object), cwd: E2E } as typeof base.webServer
});
