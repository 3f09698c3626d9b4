#!/usr/bin/env node
// Checks that every "METHOD path" line of the spec's endpoint list is an operation of openapi.yaml,
// with the path spelled exactly (legacy typos included).
//
//   node scripts/check-endpoints.mjs [endpoints.txt] [openapi.yaml]
//
// Defaults: docs/spec/endpoints.txt and openapi.yaml, both relative to the repository root.
// Prints "N/M endpoints covered"; exits 1 (listing the missing lines) unless every line is covered,
// 2 when a file cannot be read or parsed.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Parses the endpoint list: one "METHOD /path" a line; blank lines and # comments are skipped. */
export function parseEndpoints(text) {
  const endpoints = [];
  const malformed = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const match = /^([A-Za-z]+)\s+(\/\S*)$/.exec(line);
    if (!match || !HTTP_METHODS.includes(match[1].toLowerCase())) {
      malformed.push({ lineNumber: index + 1, line });
      return;
    }
    endpoints.push({ lineNumber: index + 1, line, method: match[1].toLowerCase(), path: match[2] });
  });
  return { endpoints, malformed };
}

/** Every operation of an OpenAPI document as "METHOD path" -> operationId (or null). */
export function listOperations(doc) {
  const operations = new Map();
  for (const [path, item] of Object.entries(doc?.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item?.[method];
      if (operation) operations.set(`${method.toUpperCase()} ${path}`, operation.operationId ?? null);
    }
  }
  return operations;
}

/** Compares the list with the document. */
export function checkEndpoints(endpointsText, openapiText) {
  const { endpoints, malformed } = parseEndpoints(endpointsText);
  const operations = listOperations(parse(openapiText));
  const covered = [];
  const missing = [];
  for (const endpoint of endpoints) {
    const key = `${endpoint.method.toUpperCase()} ${endpoint.path}`;
    if (operations.has(key)) covered.push({ ...endpoint, operationId: operations.get(key) });
    else missing.push(endpoint);
  }
  const listed = new Set(endpoints.map((e) => `${e.method.toUpperCase()} ${e.path}`));
  const extra = [...operations.keys()].filter((key) => !listed.has(key));
  return { total: endpoints.length, covered, missing, malformed, extra };
}

function main(argv) {
  const endpointsFile = resolve(repoRoot, argv[0] ?? 'docs/spec/endpoints.txt');
  const openapiFile = resolve(repoRoot, argv[1] ?? 'openapi.yaml');
  let result;
  try {
    result = checkEndpoints(readFileSync(endpointsFile, 'utf8'), readFileSync(openapiFile, 'utf8'));
  } catch (error) {
    console.error(`check-endpoints: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  const { total, covered, missing, malformed, extra } = result;
  for (const m of malformed) console.error(`malformed line ${m.lineNumber}: ${m.line}`);
  for (const m of missing) console.error(`not an operation (line ${m.lineNumber}): ${m.line}`);
  const withoutId = covered.filter((c) => !c.operationId);
  for (const c of withoutId) console.error(`operation without operationId: ${c.line}`);
  console.log(`${covered.length}/${total} endpoints covered`);
  if (extra.length > 0) console.log(`(+${extra.length} operations the endpoint list does not name)`);
  return missing.length === 0 && malformed.length === 0 && withoutId.length === 0 ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
