import type { StoredFile } from '@switchyard/accounts';

/**
 * OpenAI's File object of a stored file: `{id, object: "file", bytes, created_at, expires_at?, filename, purpose,
 * status: "processed", status_details: null}` (`expires_at` only when the file expires).
 * @see https://platform.openai.com/docs/api-reference/files/object
 */
export function fileObject(file: StoredFile): Record<string, unknown> {
  return {
    id: file.id,
    object: 'file',
    bytes: file.bytes,
    created_at: file.created_at,
    ...(file.expires_at !== null && { expires_at: file.expires_at }),
    filename: file.filename,
    purpose: file.purpose,
    status: 'processed',
    status_details: null,
  };
}
