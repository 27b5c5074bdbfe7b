import type { Request, Response } from "express";
import type { Config } from "../config.ts";
import type { AuthContext } from "../context.ts";
import type { Database } from "../db/open-database.ts";
import { ServiceError } from "../errors/service-error.ts";
import type { operations } from "../generated/openapi.ts";

export interface HandlerDeps {
  db: Database;
  config: Config;
}

export type Handler = (req: Request, res: Response, deps: HandlerDeps) => Promise<void> | void;
export type OperationId = keyof operations;
export type HandlerTable = Partial<Record<OperationId, Handler>>;

/** The authenticated caller; only called on operations whose security is an API key. */
export function authOf(req: Request): AuthContext {
  if (!req.ctx.auth) throw new ServiceError("UNAUTHORIZED", "Missing or invalid API key");
  return req.ctx.auth;
}

/** A validated integer query parameter (the validator has already checked type and bounds). */
export function intQuery(req: Request, name: string, fallback: number): number {
  const raw = (req.query as Record<string, unknown>)[name];
  return raw === undefined ? fallback : Number(raw);
}

export function param(req: Request, name: string): string {
  return req.ctx.params[name] as string;
}
