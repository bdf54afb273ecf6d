// `@switchyard/testkit/agent-clients`: the agent-client matrix (docs/agent-clients.md) from the cells e2e tests write.
export { type AgentClientCell, parseAgentClientCell, readAgentClientCells } from './agent-client-cell.js';
export { runAgentClientsCli } from './agent-clients-cli.js';
export {
  AGENT_CLIENTS_BEGIN,
  AGENT_CLIENTS_END,
  renderAgentClientTable,
  replaceAgentClientTable,
} from './render-agent-clients.js';
