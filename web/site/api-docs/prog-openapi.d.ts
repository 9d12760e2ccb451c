/** The /prog OpenAPI document, exported from the backend code at build time (progOpenApiModule in web/site/prerender-plugin.ts). */
declare module 'virtual:cronbeam/prog-openapi' {
  const document: unknown;
  export default document;
}
