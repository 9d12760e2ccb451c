import path from 'node:path';
import { ESLint } from 'eslint';

/**
 * The lint configuration CI runs (`npm run lint`) refuses SQL outside a
 * repository in the backend's modules: a statement, a query builder or a
 * TypeORM entity repository in a service, controller or guard. Checked
 * through the real configuration.
 */
describe('lint: only repositories issue SQL', () => {
  const eslint = new ESLint({ cwd: path.resolve(__dirname, '../..') });
  const sqlHits = async (code: string, filePath: string) => {
    const [result] = await eslint.lintText(code, { filePath });
    return result!.messages.filter((m) => m.ruleId === 'sql/in-repositories').map((m) => m.message);
  };

  it('flags a statement, a query builder and an injected entity repository in a service', async () => {
    const service = [
      "import { Injectable } from '@nestjs/common';",
      "import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';",
      "import type { DataSource, Repository } from 'typeorm';",
      "import { UserEntity } from '../auth/user.entity';",
      '@Injectable()',
      'export class ProbeService {',
      '  constructor(@InjectDataSource() private readonly db: DataSource, @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>) {}',
      "  count() { return this.db.query('SELECT count(*) FROM users'); }",
      "  find() { return this.users.createQueryBuilder('u').getMany(); }",
      '}',
    ].join('\n');
    const hits = await sqlHits(service, 'backend/src/modules/jobs/probe.service.ts');
    expect(hits).toHaveLength(3);
    expect(hits).toEqual(
      expect.arrayContaining([expect.stringContaining("'.query('"), expect.stringContaining("'.createQueryBuilder('"), expect.stringContaining("'@InjectRepository'")]),
    );
  });

  it('flags a controller that reaches a table through the data source', async () => {
    const controller = "export class ProbeController { constructor(private readonly db: { getRepository(e: unknown): unknown }) {} list() { return this.db.getRepository('users'); } }";
    expect(await sqlHits(controller, 'backend/src/modules/mail/probe.controller.ts')).toHaveLength(1);
  });

  it('passes the same statement in a repository, and a service that opens a transaction and hands it to one', async () => {
    const repository = "export class ProbeRepository { constructor(private readonly db: { query(s: string, p: unknown[]): Promise<unknown> }) {} count(id: string) { return this.db.query('SELECT 1 WHERE $1::uuid IS NOT NULL', [id]); } }";
    expect(await sqlHits(repository, 'backend/src/modules/jobs/probe.repository.ts')).toEqual([]);
    const service = 'export class ProbeService { constructor(private readonly db: { transaction<T>(work: (tx: unknown) => Promise<T>): Promise<T> }, private readonly probes: { insert(tx: unknown): Promise<void> }) {} create() { return this.db.transaction((tx) => this.probes.insert(tx)); } }';
    expect(await sqlHits(service, 'backend/src/modules/jobs/probe.service.ts')).toEqual([]);
  });
});
