import { PLAN_LIMITS, PLAN_PRICES } from '@cronbeam/shared/plans';
import { SITE_NAME, type PageMeta } from '../../site/site-meta';

const executions = (count: number) => count.toLocaleString('en-US');

/** Title and description of /pricing, for its prerendered head and the tab title inside the app. */
export const PRICING_META: PageMeta = {
  path: '/pricing',
  title: `Pricing: Free, Basic and Pro plans | ${SITE_NAME}`,
  description:
    `Free: ${PLAN_LIMITS.free.maxJobs} jobs, ${PLAN_LIMITS.free.executionsPerMonth} executions a month, no card. ` +
    `Basic $${PLAN_PRICES.basic.monthly}/month ($${PLAN_PRICES.basic.annualPerMonth} billed annually): ${PLAN_LIMITS.basic.maxJobs} jobs, ` +
    `${executions(PLAN_LIMITS.basic.executionsPerMonth)} executions. Pro $${PLAN_PRICES.pro.monthly}/month ` +
    `($${PLAN_PRICES.pro.annualPerMonth} billed annually): ${PLAN_LIMITS.pro.maxJobs} jobs, ${executions(PLAN_LIMITS.pro.executionsPerMonth)} executions.`,
};
