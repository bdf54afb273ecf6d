#!/usr/bin/env node
// Renders the agent-client matrix (client x route) from the cell files the real-client e2e tests wrote (see README).
import { runAgentClientsCli } from '../dist/agent-clients.js';

process.exitCode = runAgentClientsCli(process.argv.slice(2));
