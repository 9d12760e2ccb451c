import { GUIDES } from '../guides/guide-catalog';
import { SITE_NAME } from '../site-meta';
import type { SitePage } from '../site-page';

function GuidesIndexPage() {
  return (
    <>
      <h1>Guides</h1>
      <p className="site-lead">Step-by-step articles on scheduling HTTP jobs with {SITE_NAME}: webhooks, CI/CD, data pipelines, n8n and AI assistants.</p>
      <section aria-labelledby="featured-title">
        <h2 id="featured-title">Featured guides</h2>
        <ul className="site-cards">
          {GUIDES.map((guide) => (
            <li className="site-card" key={guide.slug}>
              <p className="site-meta-line">
                {guide.category} · {guide.readingMinutes} min read
              </p>
              <h3>
                <a href={`/guides/${guide.slug}`}>{guide.title}</a>
              </h3>
              <p>{guide.description}</p>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="cta-title">
        <h2 id="cta-title">Try it on your own endpoints</h2>
        <p>The Free plan runs 2 jobs with 100 executions a month and needs no credit card.</p>
        <div className="site-actions">
          <a className="button button-primary button-large" href="/signup">
            Start Free Trial
          </a>
          <a className="button button-secondary button-large" href="/pricing">
            View Pricing
          </a>
        </div>
      </section>
    </>
  );
}

const page: SitePage = {
  meta: {
    path: '/guides',
    title: `Guides: scheduled webhooks, CI/CD, data pipelines, n8n and MCP | ${SITE_NAME}`,
    description: `Practical guides to scheduling HTTP requests with ${SITE_NAME}: webhooks, CI/CD triggers, data pipelines, n8n workflows and AI assistants over MCP.`,
    keywords: ['cron job guides', 'scheduled webhooks', 'n8n scheduling', 'MCP cron', 'CI/CD schedule'],
  },
  Page: GuidesIndexPage,
};
export default page;
