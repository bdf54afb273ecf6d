import { fileURLToPath } from 'node:url';

/** Absolute path of the console's built files (Vite's output): serve it at `/ui`. */
export const consoleDir = fileURLToPath(new URL('./dist/', import.meta.url));
