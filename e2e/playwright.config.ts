import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * One Jupyter server serves both hosts: JupyterLab at /lab and Notebook 7 at /notebooks.
 * CRANE_JUPYTER picks the environment under test (CI runs the newest JupyterLab and the oldest
 * supported one). The browser is Debian's chromium: Playwright's own download is not reachable.
 */
const PORT = Number(process.env.CRANE_E2E_PORT ?? 8899);
const JUPYTER = process.env.CRANE_JUPYTER ?? 'jupyter';
const PYTHON = process.env.CRANE_PYTHON ?? 'python3';
// Tests write their notebooks straight into the server's root, as a user's files would be.
process.env.CRANE_E2E_ROOT ??= join(__dirname, '.work', `notebooks-${PORT}`);

export default defineConfig({
  testDir: './tests',
  timeout: 120_000,
  expect: { timeout: 30_000 },
  workers: 1,
  // (scripts/test-all.sh asks for one retry: see why there)
  retries: Number(process.env.CRANE_E2E_RETRIES ?? (process.env.CI ? 1 : 0)),
  outputDir: process.env.CRANE_E2E_OUT ?? 'test-results',
  reporter: [['list'], ['html', { outputFolder: process.env.CRANE_E2E_REPORT ?? 'report', open: 'never' }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    screenshot: 'on',
    trace: 'retain-on-failure',
    viewport: { width: 1400, height: 900 },
    launchOptions: {
      executablePath: process.env.CRANE_CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run'
      ]
    }
  },
  webServer: {
    command: `${PYTHON} serve.py --jupyter ${JUPYTER} --port ${PORT}`,
    url: `http://127.0.0.1:${PORT}/api/status`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe'
  }
});
