import { SITE_NAME } from '../site-meta';
import type { SitePage } from '../site-page';

function NotFoundPage() {
  return (
    <>
      <h1>Page not found</h1>
      <p className="site-lead">There is no page at this address. It may have moved, or the link may be mistyped.</p>
      <ul>
        <li>
          <a href="/">Home</a>
        </li>
        <li>
          <a href="/guides">Guides</a>
        </li>
        <li>
          <a href="/api-documentation">API documentation</a>
        </li>
        <li>
          <a href="/login">Sign in to the dashboard</a>
        </li>
      </ul>
    </>
  );
}

const page: SitePage = {
  meta: { path: '/404', title: `Page not found | ${SITE_NAME}`, description: `This page does not exist on ${SITE_NAME}.` },
  Page: NotFoundPage,
  status: 404,
};
export default page;
