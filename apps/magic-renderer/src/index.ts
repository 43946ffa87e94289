/** MIME type of the %%crane_llm magic's native output (see python/crane_llm/magic). */
export const MAGIC_MIME_TYPE = 'application/vnd.crane-llm.verdict+json';
