// `@switchyard/testkit/conformance-matrix`: runs conformance tests and renders the capability matrix.
export {
  collectConformanceResults,
  conformanceResultsOf,
  conformanceTestFiles,
} from './collect-conformance-results.js';
export { runConformanceCli } from './conformance-cli.js';
export type { ConformanceResult } from './conformance-result.js';
export {
  adapterOfSuite,
  CONFORMANCE_CAPABILITIES,
  type ConformanceCapability,
  renderConformanceMatrix,
} from './render-conformance-matrix.js';
