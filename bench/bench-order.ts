/** The order every API figure sends (bench/run.mjs, bench/order-cost.ts): one unlimited course (demo course 1, plan 1) by bank transfer, in THB. */
export const benchOrder = (buyerId: number) => ({ user_id: buyerId, course_id: [1], pricingplan_id: [1], payment_method_id: 1, currency_code: 'THB' });
