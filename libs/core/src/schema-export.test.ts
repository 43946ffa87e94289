import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { WIRE_SCHEMAS } from './wire';

// The Python package validates kernel output against these files; they must match the zod source.
const OUT = join(__dirname, '..', '..', '..', 'python', 'crane_llm', 'schema');
const write = process.env.CRANE_WRITE_SCHEMA === '1';

function render(schema: z.ZodType): string {
  return JSON.stringify(z.toJSONSchema(schema, { target: 'draft-2020-12' }), null, 2) + '\n';
}

describe('exported JSON Schema', () => {
  if (write) mkdirSync(OUT, { recursive: true });
  for (const [name, schema] of Object.entries(WIRE_SCHEMAS)) {
    it(`${name}.json is up to date (run "npm run export-schema -w @crane-llm/core" if not)`, () => {
      const file = join(OUT, `${name}.json`);
      const fresh = render(schema);
      if (write) writeFileSync(file, fresh);
      expect(readFileSync(file, 'utf8')).toBe(fresh);
    });
  }
});
