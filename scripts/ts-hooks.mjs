// `node --import ./scripts/ts-hooks.mjs server/main.ts`: the repository's TypeScript run by Node
// itself. Node (22.18+, 23.6+, 24) strips the types of a .ts file as it loads it; what it does not
// do is the bundler-style resolution our sources are written in (`import … from './x'` with no
// extension, `./dir` for `./dir/index.ts`). This hook adds that, synchronously and in the loading
// thread (module.registerHooks), for relative imports made by the repository's own files; a
// package's imports go to Node unchanged.
//
// Measured on the AMD EPYC machine (docs/testing.md, "Sixth round"): importing server/app.ts took
// 2.9 CPU s through tsx (esbuild in its loader thread) and 1.3-1.6 s this way; a whole server start
// to its first answer 5.6-7.4 against 4.6-4.9 CPU s.
//
// The code must use only syntax Node can strip (tsconfig.json `erasableSyntaxOnly`: no enums,
// namespaces or parameter properties). A Node without type stripping or registerHooks (22 before
// 22.18) gets tsx's loader instead, which also transpiles.
import * as nodeModule from 'node:module';
import { statSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = pathToFileURL(fileURLToPath(new URL('..', import.meta.url))).href;
const NODE_MODULES = `${ROOT}node_modules/`;
/** What `./x` may name, in the order a bundler (and tsx) tries it. */
const CANDIDATES = ['.ts', '.tsx', '/index.ts', '/index.tsx'];
/** A specifier that already names a file by its extension. */
const HAS_EXTENSION = /\.(?:[cm]?[jt]sx?|json|node|wasm)$/u;

function isFile(url) {
  try {
    return statSync(url).isFile();
  } catch {
    return false;
  }
}

const native = typeof nodeModule.registerHooks === 'function' && Boolean(process.features.typescript);

if (native) {
  nodeModule.registerHooks({
    resolve(specifier, context, nextResolve) {
      const parent = context.parentURL;
      if (
        parent?.startsWith(ROOT) &&
        !parent.startsWith(NODE_MODULES) &&
        (specifier.startsWith('./') || specifier.startsWith('../')) &&
        !HAS_EXTENSION.test(specifier)
      ) {
        for (const tail of CANDIDATES) {
          const url = new URL(specifier + tail, parent);
          if (isFile(url)) return nextResolve(url.href, context);
        }
      }
      return nextResolve(specifier, context);
    },
  });
} else {
  await import('tsx/esm');
}
