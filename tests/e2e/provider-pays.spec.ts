/**
 * Paying on the provider's own page (2C2P payment link, GB Prime Pay card, PaySolutions): the
 * provider sends the buyer to our thank-you page, which ends the saved flow by design, so these are
 * not paths of the payment machine; the order must be paid by the provider in the database.
 * GB Prime Pay card paid and PaySolutions declined are walked, with these same database checks, by
 * gbprime-paysolutions.spec.ts (its token test and its pay-again test), not again here.
 */
import { freshStudent, loginFast, test } from './engine/fixtures';
import { paySolutionsMap, providerDeclines, providerPays, twoC2pLinkMap } from './engine/maps/redirects';

for (const map of [twoC2pLinkMap, paySolutionsMap]) {
  test(`method ${map.methodId} ${map.id}: paid on the provider page → thank-you page, paid by the provider`, async ({ page, request, shop, machines }) => {
    const user = await freshStudent(shop.db, `p${map.methodId}`);
    await loginFast(page, user.username);
    await providerPays({ page, request, shop, trace: machines, user, lang: 'th', coursePath: '/course/1-english-for-communication', plan: {} }, map);
  });
}

for (const map of [twoC2pLinkMap]) {
  test(`method ${map.methodId} ${map.id}: declined / cancelled on the provider page → back on our site, not paid`, async ({ page, request, shop, machines }) => {
    const user = await freshStudent(shop.db, `d${map.methodId}`);
    await loginFast(page, user.username);
    await providerDeclines({ page, request, shop, trace: machines, user, lang: 'th', coursePath: '/course/1-english-for-communication', plan: {} }, map);
  });
}
