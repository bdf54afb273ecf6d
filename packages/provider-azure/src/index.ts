export {
  type AzureOptions,
  DEFAULT_AZURE_API_VERSION,
  DEFAULT_AZURE_REALTIME_API_VERSION,
  createAzure,
} from './create-azure.js';
export { dropPromptFilterChunks } from './drop-prompt-filter-chunks.js';
export { mapAzureError } from './map-azure-error.js';
export { type AzureSettings, azureSettingsSchema, switchyardProvider } from './switchyard-provider.js';
