import type { ReactNode } from 'react';
import { toast, ToastContainer } from 'react-toastify';
import 'react-toastify/dist/ReactToastify.css';
import '../../app/ui/toasts.css';
import type { GuideEntry } from '../guides/guide-catalog';
import { SITE_NAME, SITE_ORIGIN_PLACEHOLDER, type PageMeta } from '../site-meta';
import type { SitePage } from '../site-page';
import { CopyNoticeContext } from './code-block';

/** Toasts of the guide pages: top-right, gone after 3 s, closed by a click, paused on hover or when the window loses focus, dragged away past 60 %. */
export const GUIDE_TOAST_SETTINGS = {
  position: 'top-right',
  autoClose: 3000,
  closeOnClick: true,
  pauseOnHover: true,
  pauseOnFocusLoss: true,
  draggable: true,
  draggablePercent: 60,
} as const;

export function Breadcrumbs({ title }: { title: string }) {
  return (
    <nav className="site-breadcrumbs" aria-label="Breadcrumb">
      <ol>
        <li>
          <a href="/">Home</a>
        </li>
        <li>
          <a href="/guides">Guides</a>
        </li>
        <li aria-current="page">{title}</li>
      </ol>
    </nav>
  );
}

function GuideArticle({ guide, children }: { guide: GuideEntry; children: ReactNode }) {
  return (
    <CopyNoticeContext.Provider value={(message) => toast(message)}>
      <article className="site-article">
        <Breadcrumbs title={guide.title} />
        <h1>{guide.title}</h1>
        <p className="site-meta-line">
          {guide.category} · {guide.readingMinutes} min read
        </p>
        <p className="site-lead">{guide.description}</p>
        {children}
        <aside className="site-closing" aria-label="Next steps">
          <h2>Next steps</h2>
          <p>Two jobs and 100 runs a month are free, no card needed.</p>
          <div className="site-actions">
            <a className="button button-primary button-large" href="/signup">
              Create your free account
            </a>
            <a className="button button-secondary button-large" href="/guides">
              More guides
            </a>
          </div>
        </aside>
      </article>
      <ToastContainer {...GUIDE_TOAST_SETTINGS} />
    </CopyNoticeContext.Provider>
  );
}

/** The metadata of a guide page, with schema.org Article data where the guide carries it. */
export function guideMeta(guide: GuideEntry): PageMeta {
  const path = `/guides/${guide.slug}`;
  return {
    path,
    title: `${guide.title} | ${SITE_NAME}`,
    description: guide.description,
    keywords: guide.keywords,
    type: 'article',
    jsonLd: guide.articleData
      ? {
          '@context': 'https://schema.org',
          '@type': 'Article',
          headline: guide.title,
          description: guide.description,
          keywords: guide.keywords.join(', '),
          datePublished: guide.published,
          timeRequired: `PT${guide.readingMinutes}M`,
          author: { '@type': 'Organization', name: SITE_NAME },
          publisher: { '@type': 'Organization', name: SITE_NAME },
          mainEntityOfPage: `${SITE_ORIGIN_PLACEHOLDER}${path}`,
        }
      : undefined,
  };
}

/** A guide page module from its catalog entry and its body. */
export function guidePage(guide: GuideEntry, Body: () => ReactNode): SitePage {
  return {
    meta: guideMeta(guide),
    Page: () => (
      <GuideArticle guide={guide}>
        <Body />
      </GuideArticle>
    ),
  };
}
