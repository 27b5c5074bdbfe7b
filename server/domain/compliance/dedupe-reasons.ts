import type { ComplianceReason } from "./types.ts";

/** Drops repeated reasons (same stage, rule and message), keeping the first. */
export function dedupeReasons(reasons: ComplianceReason[]): ComplianceReason[] {
  const seen = new Set<string>();
  return reasons.filter((r) => {
    const key = `${r.stage}|${r.rule}|${r.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
