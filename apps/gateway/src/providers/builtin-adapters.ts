/**
 * Adapter names that need no package name in config (`adapter: openai`), mapped to the package that provides them.
 * Any other `adapter:` value is taken as an npm package name.
 */
export const BUILTIN_ADAPTERS: Readonly<Record<string, string>> = {
  openai: '@switchyard/provider-openai',
  anthropic: '@switchyard/provider-anthropic',
  google: '@switchyard/provider-google',
  azure: '@switchyard/provider-azure',
  bedrock: '@switchyard/provider-bedrock',
  vertex: '@switchyard/provider-vertex',
};
