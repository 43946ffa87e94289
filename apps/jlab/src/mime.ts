// The %%crane_llm output renderer (apps/magic-renderer), registered by this labextension as its mimeExtension.
export { default } from '@crane-llm/magic-renderer';
