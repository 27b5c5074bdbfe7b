// The organization's members by id, for pages that name a member they only hold the id of (an API key's creator).
// Any member may list the members (`listMembers`), so every role that sees a page using this can read it.
import { api, type Environment, unwrap } from "./client.ts";
import type { MemberName } from "./key-creator.ts";

/** Enough pages for any real organization; a member beyond them is shown by id. */
const MAX_PAGES = 5;

export async function loadMemberDirectory(environment: Environment): Promise<Map<string, MemberName>> {
  const out = new Map<string, MemberName>();
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const body: { data: { id: string; name: string; email: string }[]; hasMore: boolean; nextCursor: string | null } = await unwrap(
      api(environment).GET("/api/v2/agent/members", { params: { query: { limit: 100, ...(cursor ? { startingAfter: cursor } : {}) } } }),
    );
    for (const m of body.data) out.set(m.id, { name: m.name, email: m.email });
    if (!body.hasMore || !body.nextCursor) break;
    cursor = body.nextCursor;
  }
  return out;
}
