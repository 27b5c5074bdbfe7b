import type { components } from "../../generated/openapi.ts";
import { TEMPLATES } from "./templates.ts";

export function listContractTemplates(): components["schemas"]["TemplateList"] {
  const data = TEMPLATES.map(({ generate: _generate, ...description }) => description);
  return { count: data.length, data };
}
