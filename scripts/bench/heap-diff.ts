/**
 * What a worker kept between two heap snapshots of the same process (issue 28 item 7): `node
 * --max-old-space-size=8192 --import tsx scripts/bench/heap-diff.ts before.heapsnapshot after.heapsnapshot
 * [groups] [paths]`, e.g. with the snapshots `BENCH_HEAP_SNAPSHOTS=<folder> BENCH_ONLY=soak npm run bench`
 * writes.
 *
 * Prints the groups (node type, and constructor or name for objects) by the bytes they gained, then for
 * the groups that gained most, the retainer path of a few of their objects in the second snapshot, so
 * the holder of a growth can be read. (Objects are compared by group, not by id: V8 numbers them anew
 * for each inspector session, and the bench opens one per snapshot.)
 */
import { readFileSync } from "node:fs";

interface RawSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

interface Heap {
  count: number;
  type: (i: number) => string;
  name: (i: number) => string;
  selfSize: (i: number) => number;
  /** For each node, the edges that point at it: [from node, edge label]. */
  retainers: (i: number) => [number, string][];
}

function load(file: string, withRetainers: boolean): Heap {
  const raw = JSON.parse(readFileSync(file, "utf8")) as RawSnapshot;
  const { node_fields, node_types, edge_fields, edge_types } = raw.snapshot.meta;
  const nf = node_fields.length;
  const ef = edge_fields.length;
  const [fType, fName, fSize, fEdges] = ["type", "name", "self_size", "edge_count"].map((f) =>
    node_fields.indexOf(f),
  ) as [number, number, number, number];
  const [eType, eName, eTo] = ["type", "name_or_index", "to_node"].map((f) => edge_fields.indexOf(f)) as [
    number,
    number,
    number,
  ];
  const nodes = raw.nodes;
  const count = nodes.length / nf;
  const retainerLists: [number, string][][] = withRetainers ? Array.from({ length: count }, () => []) : [];
  if (withRetainers) {
    let edge = 0;
    for (let i = 0; i < count; i++) {
      const edges = nodes[i * nf + fEdges]!;
      for (let k = 0; k < edges; k++, edge++) {
        const at = edge * ef;
        const kind = edge_types[0][raw.edges[at + eType]!]!;
        if (kind === "weak" || kind === "shortcut") continue;
        const label =
          kind === "element" || kind === "hidden" ? `[${raw.edges[at + eName]}]` : raw.strings[raw.edges[at + eName]!]!;
        retainerLists[raw.edges[at + eTo]! / nf]!.push([i, label]);
      }
    }
  }
  return {
    count,
    type: (i) => node_types[0][nodes[i * nf + fType]!]!,
    name: (i) => raw.strings[nodes[i * nf + fName]!]!,
    selfSize: (i) => nodes[i * nf + fSize]!,
    retainers: (i) => retainerLists[i] ?? [],
  };
}

/** Strings and code are grouped by kind, objects by constructor. */
function groupOf(heap: Heap, i: number): string {
  const type = heap.type(i);
  if (type === "object" || type === "closure" || type === "native") return `${type} ${heap.name(i).slice(0, 60)}`;
  return type;
}

interface Group {
  count: number;
  bytes: number;
}

function groups(heap: Heap): Map<string, Group> {
  const out = new Map<string, Group>();
  for (let i = 0; i < heap.count; i++) {
    const key = groupOf(heap, i);
    const g = out.get(key) ?? { count: 0, bytes: 0 };
    g.count++;
    g.bytes += heap.selfSize(i);
    out.set(key, g);
  }
  return out;
}

/** The chain of holders of node `i`, nearest first, up to a root or `depth` steps. */
function retainerPath(heap: Heap, i: number, depth: number): string {
  const parts: string[] = [];
  const seen = new Set<number>([i]);
  let current = i;
  for (let d = 0; d < depth; d++) {
    const next = heap.retainers(current).find(([from]) => !seen.has(from));
    if (!next) break;
    const [from, label] = next;
    parts.push(`.${label} ← ${heap.type(from)} ${heap.name(from).slice(0, 50)}`);
    if (heap.type(from) === "synthetic") break;
    seen.add(from);
    current = from;
  }
  return parts.join(" ");
}

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(2)} MB`;

function main() {
  const [beforeFile, afterFile, groupsArg, pathsArg] = process.argv.slice(2);
  if (!beforeFile || !afterFile) {
    console.error("usage: heap-diff.ts <before.heapsnapshot> <after.heapsnapshot> [groups=25] [paths per group=3]");
    process.exit(2);
  }
  const shown = Number(groupsArg ?? 25);
  const pathsPerGroup = Number(pathsArg ?? 3);
  const beforeGroups = groups(load(beforeFile, false));
  const after = load(afterFile, true);
  const afterGroups = groups(after);
  const total = (g: Map<string, Group>) =>
    [...g.values()].reduce((t, x) => ({ count: t.count + x.count, bytes: t.bytes + x.bytes }), { count: 0, bytes: 0 });
  const [b, a] = [total(beforeGroups), total(afterGroups)];
  console.log(
    `before: ${b.count} objects, ${mb(b.bytes)}; after: ${a.count} objects, ${mb(a.bytes)} (${a.bytes >= b.bytes ? "+" : ""}${mb(a.bytes - b.bytes)})`,
  );
  const none = { count: 0, bytes: 0 };
  const rows = [...new Set([...beforeGroups.keys(), ...afterGroups.keys()])]
    .map((key) => {
      const was = beforeGroups.get(key) ?? none;
      const now = afterGroups.get(key) ?? none;
      return { key, dBytes: now.bytes - was.bytes, dCount: now.count - was.count, now };
    })
    .sort((x, y) => y.dBytes - x.dBytes);
  const sign = (n: number) => (n >= 0 ? "+" : "");
  console.log(`\nGroups that gained most:`);
  for (const r of rows.slice(0, shown))
    console.log(
      `  ${sign(r.dBytes)}${mb(r.dBytes)}\t${sign(r.dCount)}${r.dCount} objects\tnow ${mb(r.now.bytes)} (${r.now.count})\t${r.key}`,
    );
  console.log(`\nGroups that shrank most:`);
  for (const r of rows.slice(-5).reverse()) console.log(`  ${mb(r.dBytes)}\t${r.dCount} objects\t${r.key}`);

  console.log(`\nWho holds objects of the groups that gained most (the last ones in the second snapshot):`);
  for (const r of rows.slice(0, Math.min(shown, 8)).filter((x) => x.dBytes > 0)) {
    console.log(`  ${r.key}:`);
    let found = 0;
    for (let i = after.count - 1; i >= 0 && found < pathsPerGroup; i--)
      if (groupOf(after, i) === r.key) {
        console.log(`    ${retainerPath(after, i, 12)}`);
        found++;
      }
  }
}

main();
