// One autocannon run in its own process: argv[2] is a JSON of {url, method, path, body?, contentType?, connections,
// duration}; prints one JSON line with requests/s, latency percentiles (ms), errors and non-2xx answers.
import autocannon from 'autocannon';
import { transcriptionUpload } from './payloads.js';

const options = JSON.parse(process.argv[2]);
let body = options.body;
let contentType = options.contentType ?? 'application/json';
if (options.upload) ({ body, contentType } = transcriptionUpload());
const result = await autocannon({
  url: `${options.url}${options.path}`,
  method: options.method,
  connections: options.connections,
  duration: options.duration,
  headers: { authorization: `Bearer ${options.key}`, ...(body ? { 'content-type': contentType } : {}) },
  body,
});
process.stdout.write(
  `${JSON.stringify({
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    p999: result.latency.p99_9,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    total: result.requests.total,
  })}\n`,
);
