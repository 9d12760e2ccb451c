import {
  type IpcInvokeArgument,
  type IpcInvokeChannel,
  type IpcInvokeResults,
  IPC_INVOKE_CHANNELS,
  ipcInvokeSchemas,
  IpcValidationError,
} from '@cronbeam/shared/desktop/ipc-contract';

/** One handler per invoke channel, typed from the shared contract. */
export type IpcHandlers = { [C in IpcInvokeChannel]: (arg: IpcInvokeArgument<C>) => Promise<IpcInvokeResults[C]> | IpcInvokeResults[C] };

/** A group of handlers for one feature (session, settings, app). */
export type IpcHandlerGroup<C extends IpcInvokeChannel> = Pick<IpcHandlers, C>;

/** The piece of Electron's ipcMain the registry needs. */
export interface IpcMainPort {
  handle(channel: string, listener: (event: { senderFrame: { url: string } | null }, ...args: unknown[]) => unknown): void;
}


/**
 * Validates a call's argument against the contract's schema and runs the
 * handler; a bad argument is rejected with the schema's first message and
 * never reaches the handler.
 */
export async function dispatchInvoke<C extends IpcInvokeChannel>(handlers: IpcHandlers, channel: C, arg: unknown): Promise<IpcInvokeResults[C]> {
  const schema = ipcInvokeSchemas[channel];
  const parsed = schema.safeParse(arg);
  if (!parsed.success) throw new IpcValidationError(channel, parsed.error.issues[0]?.message ?? 'invalid argument');
  const handler = handlers[channel] as (a: unknown) => Promise<IpcInvokeResults[C]> | IpcInvokeResults[C];
  return handler(parsed.data);
}

/**
 * Registers every channel of the contract, each from its feature's group.
 * Calls from frames other than the app's own (a page that navigated away,
 * an iframe) are refused.
 */
export function registerIpcHandlers(
  ipcMain: IpcMainPort,
  isTrustedFrame: (url: string | undefined) => boolean,
  ...groups: Array<Partial<IpcHandlers>>
): IpcHandlers {
  const handlers = Object.assign({}, ...groups) as IpcHandlers;
  for (const channel of IPC_INVOKE_CHANNELS) {
    if (typeof handlers[channel] !== 'function') throw new Error(`No IPC handler for ${channel}`);
    ipcMain.handle(channel, (event, ...args) => {
      if (!isTrustedFrame(event.senderFrame?.url)) throw new IpcValidationError(channel, 'caller is not the app window');
      if (args.length > 1) throw new IpcValidationError(channel, 'takes at most one argument');
      return dispatchInvoke(handlers, channel, args[0]);
    });
  }
  return handlers;
}
