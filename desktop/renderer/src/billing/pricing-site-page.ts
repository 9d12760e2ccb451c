import { PLAN_LIMITS, PLAN_PRICES } from '@shared/plans';
import { SITE_NAME } from '../site/site-meta';
import type { SitePage } from '../site/site-page';
import PricingPage from './pricing-page';

const executions = (count: number) => count.toLocaleString('en-US');

/** /pricing as a public page: prerendered in the site's frame with its plans and questions, then live (checkout, plan changes). */
const page: SitePage = {
  meta: {
    path: '/pricing',
    title: `Pricing: Free, Basic and Pro plans | ${SITE_NAME}`,
    description:
      `Free: ${PLAN_LIMITS.free.maxJobs} jobs, ${PLAN_LIMITS.free.executionsPerMonth} executions a month, no card. ` +
      `Basic $${PLAN_PRICES.basic.monthly}/month ($${PLAN_PRICES.basic.annualPerMonth} billed annually): ${PLAN_LIMITS.basic.maxJobs} jobs, ` +
      `${executions(PLAN_LIMITS.basic.executionsPerMonth)} executions. Pro $${PLAN_PRICES.pro.monthly}/month ` +
      `($${PLAN_PRICES.pro.annualPerMonth} billed annually): ${PLAN_LIMITS.pro.maxJobs} jobs, ${executions(PLAN_LIMITS.pro.executionsPerMonth)} executions.`,
  },
  Page: PricingPage,
};

export default page;
