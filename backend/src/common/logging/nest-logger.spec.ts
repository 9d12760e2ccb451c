import pino from 'pino';
import { NestPinoLogger } from './nest-logger';

function capture(): { logger: NestPinoLogger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const stream = { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) };
  return { logger: new NestPinoLogger(pino({ level: 'debug' }, stream)), lines };
}

describe('NestPinoLogger', () => {
  it('writes the message with the logger context Nest appends', () => {
    const { logger, lines } = capture();
    logger.log('Cronbeam listening', 'Bootstrap');
    logger.warn('lease lost', 'RunRecorder');
    expect(lines).toEqual([
      expect.objectContaining({ level: 30, msg: 'Cronbeam listening', context: 'Bootstrap' }),
      expect.objectContaining({ level: 40, msg: 'lease lost', context: 'RunRecorder' }),
    ]);
  });

  it('merges an object first argument into the line', () => {
    const { logger, lines } = capture();
    logger.log({ userId: 'u1', to: 'unlimited' }, 'Operator changed a plan', 'AdminController');
    expect(lines[0]).toMatchObject({ userId: 'u1', to: 'unlimited', msg: 'Operator changed a plan', context: 'AdminController' });
  });

  it('logs an Error as err with its stack', () => {
    const { logger, lines } = capture();
    logger.error(new Error('boom'), 'MailService');
    expect(lines[0]).toMatchObject({ level: 50, context: 'MailService', err: { message: 'boom' } });
    expect((lines[0].err as { stack: string }).stack).toContain('nest-logger.spec');
  });

  it("turns Nest's (message, stack, context) error calls into an err", () => {
    const { logger, lines } = capture();
    logger.error('Unhandled', 'Error: Unhandled\n    at somewhere (x.js:1:1)', 'ExceptionsHandler');
    expect(lines[0]).toMatchObject({ context: 'ExceptionsHandler', err: { message: 'Unhandled', stack: 'Error: Unhandled\n    at somewhere (x.js:1:1)' } });
  });

  it('maps verbose to trace and skips levels below the configured one', () => {
    const { logger, lines } = capture();
    logger.verbose('fine detail', 'X');
    logger.debug('detail', 'X');
    expect(lines).toEqual([expect.objectContaining({ level: 20, msg: 'detail' })]);
  });
});
