import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// Tests read @crane-llm/core from its sources, so they need no prior build of core.
export default defineConfig({
  resolve: { alias: { '@crane-llm/core': resolve(__dirname, '../core/src/index.ts') } },
  test: { include: ['src/**/*.test.ts'] }
});
