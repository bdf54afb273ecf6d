/**
 * Adapter names that need no package name in config (`adapter: openai`), mapped to the package that provides them.
 * The named presets of the OpenAI-compatible adapter (`groq`, `mistral`, ...) map to `@switchyard/provider-openai`,
 * which exports their factories in `switchyardProviders` by name. Any other `adapter:` value is taken as an npm
 * package name.
 */
export const BUILTIN_ADAPTERS: Readonly<Record<string, string>> = {
  openai: '@switchyard/provider-openai',
  anthropic: '@switchyard/provider-anthropic',
  google: '@switchyard/provider-google',
  azure: '@switchyard/provider-azure',
  bedrock: '@switchyard/provider-bedrock',
  vertex: '@switchyard/provider-vertex',
  cohere: '@switchyard/provider-cohere',
  deepgram: '@switchyard/provider-deepgram',
  elevenlabs: '@switchyard/provider-elevenlabs',
  // Named presets of the OpenAI-compatible adapter (packages/provider-openai/src/presets/openai-compatible-presets.ts).
  groq: '@switchyard/provider-openai',
  mistral: '@switchyard/provider-openai',
  deepseek: '@switchyard/provider-openai',
  xai: '@switchyard/provider-openai',
  together: '@switchyard/provider-openai',
  fireworks: '@switchyard/provider-openai',
  openrouter: '@switchyard/provider-openai',
  perplexity: '@switchyard/provider-openai',
  cerebras: '@switchyard/provider-openai',
  ollama: '@switchyard/provider-openai',
  vllm: '@switchyard/provider-openai',
  lmstudio: '@switchyard/provider-openai',
};
