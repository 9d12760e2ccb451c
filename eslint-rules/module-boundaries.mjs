import path from 'node:path';

/**
 * Backend feature modules talk to each other through their public surface
 * only: a module may import from another module its `<name>.module.ts`, its
 * services (`*.service.ts`), its guards (`*.guard.ts`) or its `index.ts`
 * (what the module deliberately exports: types, decorators). Everything else
 * (entities, repositories, helpers) is the owning module's internals.
 */
const PUBLIC_FILE = /(^index|\.module|\.service|\.guard)$/;

export function moduleBoundaries(modulesDir) {
  const root = path.resolve(modulesDir);
  const moduleOf = (file) => {
    const rel = path.relative(root, file);
    return rel.startsWith('..') || path.isAbsolute(rel) ? null : rel.split(path.sep);
  };
  return {
    meta: {
      type: 'problem',
      docs: { description: 'A backend module imports only the public files of another module' },
      messages: {
        internal:
          "'{{source}}' is an internal file of the {{target}} module: import its module, a service, a guard or its index.ts instead (or make what you need public there)",
      },
      schema: [],
    },
    create(context) {
      const own = moduleOf(context.filename);
      if (!own || own.length < 2) return {};
      const check = (node) => {
        const source = node.source && node.source.type === 'Literal' ? node.source.value : null;
        if (typeof source !== 'string' || !source.startsWith('.')) return;
        const target = moduleOf(path.resolve(path.dirname(context.filename), source));
        if (!target || target[0] === own[0]) return;
        const file = target.length === 1 ? 'index' : path.basename(target[target.length - 1]).replace(/\.(ts|tsx|js)$/, '');
        if (!PUBLIC_FILE.test(file)) context.report({ node: node.source, messageId: 'internal', data: { source, target: target[0] } });
      };
      return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
    },
  };
}
