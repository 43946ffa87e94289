import { defineConfig } from 'vitest/config';

// The provider tests spawn the local OpenAI-compatible server (a Python process), so they get time.
export default defineConfig({ test: { include: ['src/**/*.test.ts'], testTimeout: 30000, hookTimeout: 30000 } });
