import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { include: ['src/**/*.test.ts'], environment: 'jsdom', setupFiles: ['./vitest.setup.ts'] }
});
