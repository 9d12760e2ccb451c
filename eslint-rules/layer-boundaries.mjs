import path from 'node:path';

/**
 * The top-level parts import each other in one direction only: the web app,
 * the public site and the desktop shell reach the server through HTTP and
 * each other through `shared/` (the IPC contract, rules, types), never by
 * importing the other's files. `layers` maps a folder (relative to the
 * repository) to the folders its files may not import from; a specifier is
 * resolved against the importing file (relative paths) or the aliases given.
 */
export function layerBoundaries(rootDir, layers, aliases = {}) {
  const root = path.resolve(rootDir);
  const inside = (file, dir) => {
    const rel = path.relative(path.join(root, dir), file);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  };
  const resolveSource = (source, filename) => {
    if (source.startsWith('.')) return path.resolve(path.dirname(filename), source);
    for (const [alias, target] of Object.entries(aliases)) {
      if (source === alias || source.startsWith(`${alias}/`)) return path.join(root, target, source.slice(alias.length));
    }
    return null;
  };
  return {
    meta: {
      type: 'problem',
      docs: { description: 'A top-level part (web, desktop, shared, backend) imports only what its layer may use' },
      messages: {
        forbidden: "'{{source}}' is inside {{target}}/, which {{layer}}/ may not import: {{why}}",
      },
      schema: [],
    },
    create(context) {
      const filename = path.resolve(context.filename);
      const layer = Object.keys(layers).find((dir) => inside(filename, dir));
      if (!layer) return {};
      const check = (node) => {
        const source = node.source && node.source.type === 'Literal' ? node.source.value : null;
        if (typeof source !== 'string') return;
        const target = resolveSource(source, filename);
        if (!target) return;
        const forbidden = layers[layer].find((rule) => inside(target, rule.dir));
        if (forbidden) context.report({ node: node.source, messageId: 'forbidden', data: { source, target: forbidden.dir, layer, why: forbidden.why } });
      };
      return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
    },
  };
}
