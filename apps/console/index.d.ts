/** Absolute path of the console's built files (Vite's output, with `index.html`): serve it at `/ui`. */
export declare const consoleDir: string;
