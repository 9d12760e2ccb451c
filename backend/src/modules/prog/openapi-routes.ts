import { RequestMethod, type INestApplication, type Type } from '@nestjs/common';
import { GUARDS_METADATA, METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import type { z } from 'zod';
import { ZodPipe } from '../../common/validation/zod-body.pipe';
import { routeRole, type RouteRole } from '../auth/account-role.guard';

/** What the server itself says about one route: who may call it and which schemas validate its body and query. */
export interface RouteFacts {
  /** The guards that run before the handler, the controller's first (classes, or instances). */
  guards: unknown[];
  body: z.ZodType | null;
  query: z.ZodType | null;
  /** True when the handler reads its body without a schema (it validates the body itself, or reads it raw). */
  unvalidatedBody: boolean;
  /** The least role in the account the role guard asks for (checked only behind an authenticating guard). */
  role: RouteRole;
  /** The handler itself, for readers of its other decorators (the audit check's @NotAudited). */
  handler: (...args: never[]) => unknown;
}

type RouteArgument = { index: number; data?: unknown; pipes?: unknown[] };

const joinPath = (...parts: string[]) => `/${parts.flatMap((p) => p.split('/')).filter(Boolean).join('/')}`;
/** Nest's ":id" as OpenAPI's "{id}". */
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

function zodPipe(argument: RouteArgument): ZodPipe<z.ZodType> | undefined {
  return argument.pipes?.find((pipe): pipe is ZodPipe<z.ZodType> => pipe instanceof ZodPipe);
}

/**
 * Every route of the app's controllers, keyed "method /path/{param}" as the
 * OpenAPI documents key operations, read from the same decorators Nest routes
 * and guards by: the documents say what the server does, not what a list says.
 */
export function routeFacts(app: INestApplication): Map<string, RouteFacts> {
  const facts = new Map<string, RouteFacts>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type<unknown> | null;
      if (!controller) continue;
      const base = [Reflect.getMetadata(PATH_METADATA, controller) ?? ''].flat() as string[];
      const classGuards = (Reflect.getMetadata(GUARDS_METADATA, controller) ?? []) as unknown[];
      const prototype = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        const paths = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
        if (method === undefined || paths === undefined) continue;
        const args = Object.entries((Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<string, RouteArgument>);
        const argument = (type: RouteParamtypes) => args.find(([key]) => key.split(':')[0] === String(type))?.[1];
        const schemaOf = (type: RouteParamtypes) => {
          const found = argument(type);
          return found ? (zodPipe(found)?.schema ?? null) : null;
        };
        const body = argument(RouteParamtypes.BODY);
        const route: RouteFacts = {
          guards: [...classGuards, ...((Reflect.getMetadata(GUARDS_METADATA, handler) ?? []) as unknown[])],
          body: schemaOf(RouteParamtypes.BODY),
          query: schemaOf(RouteParamtypes.QUERY),
          unvalidatedBody: (body !== undefined && !zodPipe(body)) || argument(RouteParamtypes.RAW_BODY) !== undefined,
          role: routeRole(handler, controller, RequestMethod[method]),
          handler: handler as RouteFacts['handler'],
        };
        for (const prefix of base) {
          for (const path of [paths].flat()) facts.set(`${RequestMethod[method].toLowerCase()} ${openApiPath(joinPath(prefix, path))}`, route);
        }
      }
    }
  }
  return facts;
}
