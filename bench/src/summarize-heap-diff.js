// `node --max-old-space-size=4096 bench/src/summarize-heap-diff.js <before.heapsnapshot> <after.heapsnapshot> [units]
// [rows]`: what the objects of the second snapshot add over the first, by V8 node type and name (strings and code
// grouped), in bytes (self sizes) and counts per unit (e.g. per stream held, see idle-streams-heap.js), largest first.
import { readFileSync } from 'node:fs';

function countByKind(file) {
  const snapshot = JSON.parse(readFileSync(file, 'utf8'));
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((field) => fields.indexOf(field));
  const kinds = new Map();
  for (let i = 0; i < snapshot.nodes.length; i += width) {
    const type = types[snapshot.nodes[i + typeAt]];
    let name = snapshot.strings[snapshot.nodes[i + nameAt]];
    if (type.endsWith('string')) name = '(string)';
    if (type === 'code') name = '(code)';
    const kind = `${type}:${name.slice(0, 60)}`;
    const entry = kinds.get(kind) ?? { count: 0, bytes: 0 };
    entry.count++;
    entry.bytes += snapshot.nodes[i + sizeAt];
    kinds.set(kind, entry);
  }
  return kinds;
}

const [beforeFile, afterFile, unitsText = '1', rowsText = '40'] = process.argv.slice(2);
const before = countByKind(beforeFile);
const after = countByKind(afterFile);
const units = Number(unitsText);
const rows = [];
let total = 0;
for (const kind of new Set([...before.keys(), ...after.keys()])) {
  const a = before.get(kind) ?? { count: 0, bytes: 0 };
  const b = after.get(kind) ?? { count: 0, bytes: 0 };
  rows.push({ kind, count: (b.count - a.count) / units, bytes: (b.bytes - a.bytes) / units });
  total += (b.bytes - a.bytes) / units;
}
console.log(`${total.toFixed(0)} bytes per unit in all`);
for (const row of rows.sort((x, y) => y.bytes - x.bytes).slice(0, Number(rowsText)))
  console.log(`${row.bytes.toFixed(0).padStart(8)} B ${row.count.toFixed(2).padStart(8)}  ${row.kind}`);
