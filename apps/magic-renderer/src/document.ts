import { z } from 'zod';
import { CheckState } from '@crane-llm/core';

/** MIME type of the %%crane_llm magic's native output (see python/crane_llm/magic/live_output.py). */
export const MAGIC_MIME_TYPE = 'application/vnd.crane-llm.verdict+json';

/** The magic's output: libs/core's CheckState as the kernel builds it, and what the magic adds around it. */
export const MagicDocument = z.object({
  version: z.literal(1),
  displayId: z.string(),
  options: z.object({ useLlm: z.boolean(), includeRuntimeInfo: z.boolean(), model: z.string().nullable() }),
  /** Where the model, key and base_url came from, e.g. "API key from Kaggle secret CRANE_LLM_API_KEY." */
  notes: z.array(z.string()),
  state: CheckState
});
export type MagicDocument = z.infer<typeof MagicDocument>;
