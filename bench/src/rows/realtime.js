// Row `realtime` (issue #35): Realtime sessions through a bare `ws` relay and through Switchyard, see
// ../realtime-row.js. Figures only: the issue sets no target.
import { realtimeRow, realtimeTable } from '../realtime-row.js';

export const realtime = {
  name: 'realtime',
  title: 'Realtime sessions: CPU per event and round trip, Switchyard vs a bare ws relay (no target)',
  async run(ctx) {
    const figures = await realtimeRow({ rounds: ctx.rounds, quick: ctx.quick });
    for (const line of realtimeTable(figures).split('\n')) ctx.log(line);
    return { figures, checks: [] };
  },
};
