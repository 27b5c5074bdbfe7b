import express, { type RequestHandler } from "express";

/** JSON bodies only, size-limited (413 above). Other media types stay unparsed and the validator answers 415. */
export function jsonBodyParser(limitBytes: number): RequestHandler {
  return express.json({ limit: limitBytes, strict: true, type: ["application/json", "application/*+json"] });
}
