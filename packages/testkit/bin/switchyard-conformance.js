#!/usr/bin/env node
// Runs the adapter conformance tests of the given package directories and writes the capability matrix (see README).
import { runConformanceCli } from '../dist/conformance-matrix.js';

process.exitCode = runConformanceCli(process.argv.slice(2));
