import path from 'node:path';

/**
 * SQL lives in repositories: under the backend's modules, only a
 * `*.repository.ts` file may issue a statement (`.query(...)`), build one
 * (`createQueryBuilder`), reach TypeORM's per-entity repositories
 * (`getRepository`, `@InjectRepository`) or open a raw query runner
 * (`createQueryRunner`). Services open transactions (`DataSource.transaction`)
 * and pass them to repositories. `allow` lists files still waiting to move
 * their statements (paths relative to the working directory).
 */
const QUERYING_METHODS = new Set(['query', 'createQueryBuilder', 'getRepository', 'createQueryRunner']);

export function sqlInRepositories(modulesDir) {
  const root = path.resolve(modulesDir);
  return {
    meta: {
      type: 'problem',
      docs: { description: 'Only repositories issue SQL in backend modules' },
      messages: {
        sql: "'{{what}}' issues SQL outside a repository: move the statement into the owning module's *.repository.ts",
      },
      schema: [{ type: 'object', properties: { allow: { type: 'array', items: { type: 'string' } } }, additionalProperties: false }],
    },
    create(context) {
      const file = path.resolve(context.filename);
      const rel = path.relative(root, file);
      if (rel.startsWith('..') || path.isAbsolute(rel)) return {};
      if (/\.repository\.ts$|\.spec\.ts$/.test(file)) return {};
      const allowed = new Set((context.options[0]?.allow ?? []).map((p) => path.resolve(p)));
      if (allowed.has(file)) return {};
      const memberName = (node) => (node.type === 'MemberExpression' && !node.computed && node.property.type === 'Identifier' ? node.property.name : null);
      return {
        CallExpression(node) {
          const name = memberName(node.callee);
          if (name && QUERYING_METHODS.has(name)) context.report({ node: node.callee.property, messageId: 'sql', data: { what: `.${name}(` } });
        },
        Decorator(node) {
          const callee = node.expression.type === 'CallExpression' ? node.expression.callee : null;
          if (callee?.type === 'Identifier' && callee.name === 'InjectRepository') context.report({ node, messageId: 'sql', data: { what: '@InjectRepository' } });
        },
      };
    },
  };
}
