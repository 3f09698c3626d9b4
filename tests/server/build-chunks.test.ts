// The build's two chunk groups (vite.config.ts startupChunks): 'App' holds what the app imports
// statically and nothing that runs before it; 'page' what the course page shares with other pages.
import { describe, expect, it } from 'vitest';
import { startupChunks } from '../../vite.config';

const ROOT = '/repo';
type Node = { imports?: string[]; dynamic?: string[]; code?: string };
const graphOf = (nodes: Record<string, Node>) => ({
  getModuleInfo: (id: string) => {
    const n = nodes[id.slice(ROOT.length + 1)];
    return n ? { importedIds: (n.imports ?? []).map((i) => `${ROOT}/${i}`), dynamicallyImportedIds: (n.dynamic ?? []).map((i) => `${ROOT}/${i}`), code: n.code ?? '' } : null;
  },
});

const nodes: Record<string, Node> = {
  'src/main.tsx': { imports: ['node_modules/react/index.js', 'src/i18n/messages.ts'], dynamic: ['node_modules/react-dom/client.js', 'src/app/App.tsx', 'src/i18n/en.ts'] },
  'node_modules/react/index.js': {},
  'src/i18n/messages.ts': { imports: ['domain/messages.ts'] },
  'domain/messages.ts': {},
  'src/i18n/en.ts': { imports: ['domain/messages-en.ts', 'src/i18n/messages.ts', 'src/i18n/plural.ts'] },
  'domain/messages-en.ts': {},
  // a module the English chunk and the app both import: it may not be written in the app's chunk
  'src/i18n/plural.ts': {},
  'node_modules/react-dom/client.js': { imports: ['node_modules/react-dom/index.js', 'node_modules/react/index.js'] },
  'node_modules/react-dom/index.js': {},
  'src/app/App.tsx': {
    imports: ['node_modules/react-router/index.mjs', 'src/api/requests/cart.ts', 'src/app/RootLayout.tsx', 'src/i18n/plural.ts', 'domain/messages.ts'],
    dynamic: ['src/features/course/CoursePage.tsx', 'src/features/product/ProductPage.tsx', 'src/features/cart/CartPage.tsx'],
  },
  'node_modules/react-router/index.mjs': { imports: ['node_modules/react/index.js', 'node_modules/react-dom/index.js'] },
  'src/api/requests/cart.ts': { imports: ['src/api/client.ts'] },
  'src/api/client.ts': {},
  'src/app/RootLayout.tsx': { imports: ['src/ui/index.ts'], code: 'import { Notifications, Spinner as S } from "../ui";\n' },
  'src/ui/index.ts': {
    imports: ['src/ui/Notifications.tsx', 'src/ui/Spinner.tsx', 'src/ui/Modal.tsx', 'src/ui/Button.tsx', 'src/ui/Price.tsx'],
    code: 'export { Notifications } from "./Notifications";\nexport { Spinner } from "./Spinner";\nexport { Modal, ConfirmModal } from "./Modal";\nexport { Button } from "./Button";\nexport { Price } from "./Price";\n',
  },
  'src/ui/Notifications.tsx': {},
  'src/ui/Spinner.tsx': {},
  'src/ui/Modal.tsx': {},
  'src/ui/Button.tsx': {},
  'src/ui/Price.tsx': {},
  'src/features/course/CoursePage.tsx': {
    imports: ['src/features/course/Hero.tsx', 'src/features/course/DeferredPurchase.tsx', 'src/ui/index.ts', 'src/features/course/course.css', 'src/api/client.ts'],
    code: 'import { Button,\n  Price } from "../../ui";\n',
  },
  'src/features/course/Hero.tsx': {},
  'src/features/course/course.css': {},
  'src/features/course/DeferredPurchase.tsx': { imports: ['src/ui/index.ts'], code: 'import { Spinner } from "../../ui";\n', dynamic: ['src/features/checkout/purchase-entry.tsx'] },
  'src/features/checkout/purchase-entry.tsx': { imports: ['src/ui/index.ts'], code: 'import { Modal } from "../../ui";\n' },
  'src/features/product/ProductPage.tsx': { imports: ['src/features/course/DeferredPurchase.tsx', 'src/ui/index.ts', 'src/features/course/course.css'], code: 'import { Price } from "../../ui";\n' },
  'src/features/cart/CartPage.tsx': { imports: ['src/ui/index.ts'], code: 'import { Button, Modal } from "../../ui";\n' },
};

const groups = () => {
  const out: Record<string, string[]> = {};
  for (const [id, group] of startupChunks(graphOf(nodes), ROOT)) (out[group] ??= []).push(id.slice(ROOT.length + 1));
  for (const list of Object.values(out)) list.sort();
  return out;
};

describe('the chunks every course page loads at start', () => {
  it("'App': the app and its static imports, through the ui barrel only what it names", () => {
    expect(groups().App).toEqual([
      'node_modules/react-router/index.mjs',
      'src/api/client.ts',
      'src/api/requests/cart.ts',
      'src/app/App.tsx',
      'src/app/RootLayout.tsx',
      'src/ui/Notifications.tsx',
      'src/ui/Spinner.tsx',
    ]);
  });

  it('nothing the entry, React DOM or the English chunk import (they run before the app)', () => {
    const taken = new Set(Object.values(groups()).flat());
    for (const id of ['src/main.tsx', 'node_modules/react/index.js', 'src/i18n/messages.ts', 'domain/messages.ts', 'node_modules/react-dom/index.js', 'node_modules/react-dom/client.js', 'src/i18n/en.ts', 'src/i18n/plural.ts']) {
      expect(taken.has(id), id).toBe(false);
    }
  });

  it("'page': what the course page shares with other pages; not its own modules, not the app's, not its stylesheet", () => {
    expect(groups().page).toEqual(['src/features/course/DeferredPurchase.tsx', 'src/ui/Button.tsx', 'src/ui/Price.tsx']);
  });

  it('a barrel import it cannot read takes nothing through the barrel', () => {
    const unread = { ...nodes, 'src/app/RootLayout.tsx': { imports: ['src/ui/index.ts'], code: 'import * as ui from "../ui";\n' } };
    const taken = startupChunks(graphOf(unread), ROOT);
    expect(taken.has(`${ROOT}/src/ui/Notifications.tsx`)).toBe(false);
    expect(taken.get(`${ROOT}/src/app/RootLayout.tsx`)).toBe('App');
  });
});
