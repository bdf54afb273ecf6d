export * from './call-accounting.js';
