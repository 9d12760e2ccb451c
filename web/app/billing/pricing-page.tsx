import { useNavigate } from 'react-router-dom';
import { SiteLayout } from '../../site/layout/site-layout';
import { goTo } from './go-to';
import { PRICING_META } from './pricing-meta';
import { PricingPlans } from './pricing-plans';
import '../../site/site.css';

export { ERROR_BANNER_MS } from './pricing-plans';

/** /pricing inside the app (reached by its router): the public page's frame and plans, moves by the router. */
export default function PricingPage() {
  const navigate = useNavigate();
  return (
    <SiteLayout meta={PRICING_META}>
      <PricingPlans go={(url) => goTo(url, navigate)} />
    </SiteLayout>
  );
}
