import type { paths } from './generated/prog-api';

/** Every path of the /prog document, e.g. `/prog/jobs/{job_id}/logs`. */
export type ProgPath = keyof paths & string;

/** The `{name}` placeholders of a path template. */
export type PathPlaceholders<Template extends string> = Template extends `${string}{${infer Name}}${infer Rest}` ? Name | PathPlaceholders<Rest> : never;

/**
 * A /prog path with its placeholders filled, for clients that send through a
 * transport of their own (n8n's request helpers): only paths of the document
 * compile, each with exactly its parameters. Values are escaped, so an id can
 * never reach another route.
 */
export function progPath<Template extends ProgPath>(template: Template, params: Record<PathPlaceholders<Template>, string>): string {
  const values = params as Record<string, string>;
  return template.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(values[name]));
}
