/**
 * No Thai or English literal in a view: every text a buyer sees comes from the
 * catalogue (src/i18n/messages.ts, domain/messages.ts). Parses every src/**\/*.tsx (and the Thai
 * check also every src/**\/*.ts outside src/i18n) with the TypeScript compiler and fails on:
 *  1. JSX text with a letter (`<p>Done</p>`, `<span>เวลาเรียน</span>`);
 *  2. a string literal given to a text attribute (aria-label, title, placeholder, alt, label, …);
 *  3. a string literal rendered as a JSX child (`{ok ? 'Done' : 'Try again'}`);
 *  4. any string literal or template text containing a Thai letter (outside comments).
 * The clear exception: names and codes (`ALLOWED` below: brands and card-field codes the catalogue
 * also keeps untranslated) and texts without a letter (punctuation, digits, symbols).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');
const SRC = join(ROOT, 'src');

/** Names and codes shown as they are in every language. */
export const ALLOWED = new Set(['PayPal', 'Omise', '2C2P', 'SCB', 'PromptPay', 'GB Prime Pay', 'PaySolutions', 'CVV', 'QR', 'MM', 'YYYY', 'THB', 'USD', 'Stately', 'XState']);

const TEXT_ATTRIBUTES = new Set(['aria-label', 'aria-description', 'aria-placeholder', 'aria-roledescription', 'aria-valuetext', 'title', 'placeholder', 'alt', 'label', 'legend', 'caption', 'hint', 'error', 'confirmLabel', 'cancelLabel', 'heading', 'text', 'message']);
const THAI = /[\u0E00-\u0E7F]/u;
const LETTER = /\p{L}/u;

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files(p, out);
    else if (/\.tsx?$/.test(name) && !/\.d\.ts$/.test(name)) out.push(p);
  }
  return out;
}

function isVisibleText(s: string): boolean {
  const text = s.replace(/\s+/gu, ' ').trim();
  if (!LETTER.test(text)) return false;
  return !ALLOWED.has(text);
}

/** Walks up through ?:, ||, ??, && and parentheses: is this literal a rendered JSX child? */
function isJsxChild(node: ts.Node): boolean {
  let n: ts.Node = node;
  for (;;) {
    const p = n.parent;
    if (!p) return false;
    if (ts.isParenthesizedExpression(p) || (ts.isConditionalExpression(p) && p.condition !== n) || (ts.isBinaryExpression(p) && p.right === n)) {
      n = p;
      continue;
    }
    if (ts.isBinaryExpression(p) && p.left === n && [ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken].includes(p.operatorToken.kind)) {
      n = p;
      continue;
    }
    return ts.isJsxExpression(p) && (ts.isJsxElement(p.parent) || ts.isJsxFragment(p.parent));
  }
}

function attributeName(node: ts.Node): string | null {
  let n: ts.Node = node;
  while (n.parent && (ts.isParenthesizedExpression(n.parent) || ts.isConditionalExpression(n.parent) || ts.isJsxExpression(n.parent))) n = n.parent;
  return n.parent && ts.isJsxAttribute(n.parent) ? n.parent.name.getText() : null;
}

export function literalsIn(path: string, source: string): string[] {
  const sf = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true, path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const where = (n: ts.Node) => `${relative(ROOT, path)}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`;
  const visit = (n: ts.Node) => {
    if (ts.isJsxText(n)) {
      if (isVisibleText(n.text)) found.push(`${where(n)} text ${JSON.stringify(n.text.trim())}`);
    } else if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n)) {
      const text = n.text;
      const attr = attributeName(n);
      if (THAI.test(text)) found.push(`${where(n)} thai ${JSON.stringify(text)}`);
      else if (path.endsWith('.tsx') && attr !== null && TEXT_ATTRIBUTES.has(attr) && isVisibleText(text)) found.push(`${where(n)} ${attr}= ${JSON.stringify(text)}`);
      else if (path.endsWith('.tsx') && (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) && isJsxChild(n) && isVisibleText(text)) found.push(`${where(n)} child ${JSON.stringify(text)}`);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

describe('views hold no Thai or English literal', () => {
  it('finds literals of every kind it guards (the rule can fail)', () => {
    const sample = [
      "export const A = () => <p title='Close it'>Done <b>{ok ? 'Try again' : t('x')}</b></p>;",
      "export const B = () => <span aria-label={'เมนู'}>{t('y')}</span>;",
      "const hints = { 2: 'ชำระผ่าน' };",
      "export const C = () => <p>{t('ok')} {'PayPal'} 1/2 · <i>CVV</i></p>;",
    ].join('\n');
    const found = literalsIn(join(SRC, 'sample.tsx'), sample);
    expect(found.map((f) => f.replace(/^\S+ /, ''))).toEqual(['title= "Close it"', 'text "Done"', 'child "Try again"', 'thai "เมนู"', 'thai "ชำระผ่าน"']);
  });

  it('src/ (outside src/i18n) has none', () => {
    const found = files(SRC)
      .filter((f) => !relative(SRC, f).startsWith('i18n'))
      .flatMap((f) => literalsIn(f, readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });
});
