// What a development start prints after "listening" (the banner): where the admin token is, what to do about the first
// owner, and the command that makes an API key. The key command is README "Quick start"'s own, character for character
// (test/docs/readme-quick-start.test.ts): its scopes cover the README's calls after it — a wallet (wallets:write), a
// payment (payments:write), a metric (analytics:read) and an FX quote through the agent API (fx:write).
import { DEMO_ORGANIZATION, type FirstOwner } from "./first-owner.ts";

export const KEY_SCOPES = ["wallets:write", "payments:write", "analytics:read", "fx:write"] as const;
export const KEY_COMMAND = `export KEY=$(npm run -s cli -- keys create --org ${DEMO_ORGANIZATION} --env sandbox --scopes ${KEY_SCOPES.join(",")} --print key)`;

export interface StartHintsInput {
  admin: { generated: boolean; file: string | undefined };
  firstOwner: FirstOwner | undefined;
  invitationTtlHours: number;
  /** http://localhost:<port> */
  url: string;
}

export function startHints({ admin, firstOwner, invitationTtlHours, url }: StartHintsInput): string[] {
  const lines: string[] = [];
  if (admin.file) lines.push(`Admin token: ${admin.generated ? "written to" : "kept in"} ${admin.file} (npm run cli reads it there)`);
  switch (firstOwner?.state) {
    case "created":
    case "pending":
      lines.push(
        `Owner invitation for ${DEMO_ORGANIZATION}: ${firstOwner.state === "created" ? "written to" : "kept in"} ${firstOwner.file} (open its link within ${invitationTtlHours} h, then sign in)`,
      );
      break;
    case "accepted":
      lines.push(
        `Sign in as ${firstOwner.email} at ${url}/console (the owner invitation was accepted; README "Sign in as the first owner")`,
      );
      break;
    case "expired":
      lines.push(
        `The owner invitation for ${DEMO_ORGANIZATION} expired unused; invite again: npm run cli -- members invite --org ${DEMO_ORGANIZATION} --email ${firstOwner.email} --role owner`,
      );
      break;
  }
  lines.push(`Create a key: ${KEY_COMMAND}`);
  return lines;
}
