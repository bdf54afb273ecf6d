/** The part of madge's API the import-graph test uses (madge ships no types). @see https://github.com/pahen/madge#api */
declare module 'madge' {
  interface MadgeConfig {
    fileExtensions?: string[];
    tsConfig?: string;
    detectiveOptions?: Record<string, unknown>;
  }
  interface MadgeResult {
    /** Each file (relative to the base directory) and the files it imports. */
    obj(): Record<string, string[]>;
    /** Every import cycle, each as its files in order. */
    circular(): string[][];
  }
  export default function madge(path: string | string[], config?: MadgeConfig): Promise<MadgeResult>;
}
