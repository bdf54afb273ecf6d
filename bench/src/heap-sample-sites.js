// What the heap-sampling scripts share: asking a `heap-sampled-gateway-process.js` child, and summing its profile.

/** Sends `{type}` to a bench child and resolves with the `key` field of the first message that has one. */
export function askChild(child, type, key) {
  return new Promise((resolve) => {
    const onMessage = (message) => {
      if (message?.[key] === undefined) return;
      child.off('message', onMessage);
      resolve(message[key]);
    };
    child.on('message', onMessage);
    child.send({ type });
  });
}

export /** Bytes by allocation site (function, file, line) and by package, largest first. */
function bySite(profile) {
  const sites = new Map();
  const packages = new Map();
  const walk = (node) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.replace(/^.*node_modules\/\.pnpm\//, '').replace(/^file:\/\/.*?\/(packages|apps)\//, '$1/');
    const site = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
    const pkg = file.match(/^(packages\/[^/]+|apps\/[^/]+|@?[^/@]+)/)?.[1] ?? (url || '(native)');
    const bytes = node.selfSize ?? 0;
    if (bytes) {
      sites.set(site, (sites.get(site) ?? 0) + bytes);
      packages.set(pkg, (packages.get(pkg) ?? 0) + bytes);
    }
    for (const child of node.children ?? []) walk(child);
  };
  walk(profile.head);
  const sorted = (map) => [...map.entries()].sort((a, b) => b[1] - a[1]);
  return { sites: sorted(sites), packages: sorted(packages) };
}

/** Prints `rows` ([label, bytes] pairs, largest first) as bytes per request, at most `limit` of them (SITES, else 25). */
export function printPerRequest(rows, requests, limit = Number(process.env.SITES ?? 25)) {
  for (const [label, bytes] of rows.slice(0, limit))
    console.log(`  ${String(Math.round(bytes / requests)).padStart(6)}  ${label}`);
}
