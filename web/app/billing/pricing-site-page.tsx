import type { SitePage } from '../../site/site-page';
import { PRICING_META } from './pricing-meta';
import { PricingPlans } from './pricing-plans';

/** /pricing as a prerendered public page: no router on it, so each move is a page load. */
const page: SitePage = {
  meta: PRICING_META,
  Page: () => <PricingPlans go={(url) => window.location.assign(url)} />,
};

export default page;
