// A gateway process (argv[2]: the script to run, e.g. gateway-process.js of this or another checkout; argv[3..] its
// arguments) with V8's sampling heap profiler at hand: IPC {type: 'heap-sample-start'} starts sampling every
// allocation site, including objects later collected by either GC; {type: 'heap-sample-stop'} answers
// {heapProfile} with the profile (see heap-sample-chat.js).
import { Session } from 'node:inspector/promises';
import { pathToFileURL } from 'node:url';

const session = new Session();
session.connect();
process.on('message', async (message) => {
  if (message?.type === 'heap-sample-start') {
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 1024,
      includeObjectsCollectedByMajorGC: true,
      // HEAP_SAMPLE_SURVIVORS=1: leave out what scavenges collected, so that the profile holds what survived them
      // (promoted to the old space, or still alive), by the site that allocated it.
      includeObjectsCollectedByMinorGC: !process.env.HEAP_SAMPLE_SURVIVORS,
    });
    process.send({ heapSampling: true });
  } else if (message?.type === 'heap-sample-stop') {
    const { profile } = await session.post('HeapProfiler.stopSampling');
    process.send({ heapProfile: profile });
  }
});
const [script, ...args] = process.argv.slice(2);
process.argv = [process.argv[0], script, ...args];
await import(pathToFileURL(script).href);
