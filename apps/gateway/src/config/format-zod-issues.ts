import type { z } from 'zod';

/** One line per zod issue: `<path>: <message>` with dotted paths such as `models.0.provider`. */
export function formatZodIssues(error: z.ZodError, prefix: string[] = []): string {
  return error.issues
    .map((issue) => {
      const path = [...prefix, ...issue.path.map(String)].join('.') || '(root)';
      return `  ${path}: ${issue.message}`;
    })
    .join('\n');
}
