import { randomBytes } from 'node:crypto';

/** A new object id in OpenAI's style: `<prefix>_` plus 48 random hex characters, e.g. `resp_67cc…`, `msg_…`, `fc_…`. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(24).toString('hex')}`;
}
