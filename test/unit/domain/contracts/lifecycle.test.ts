// The contract lifecycle (service description rule 5: generate, compile, validate, simulate, deploy, verify, launch):
// a stage runs only on a project whose last completed stage is the one before it; anything else is 409 STATE_CONFLICT,
// telling a stage that already ran apart from one run out of order.
import { describe, expect, it } from "vitest";
import { assertCanRun, PAST, requiredStageFor, STAGES, type StageName } from "../../../../server/domain/contracts/lifecycle.ts";
import { ServiceError } from "../../../../server/errors/service-error.ts";

describe("stage order", () => {
  it("is the documented order", () => {
    expect(STAGES).toEqual(["generate", "compile", "validate", "simulate", "deploy", "verify", "launch"]);
  });

  it.each<[StageName, string]>([
    ["compile", "generated"],
    ["validate", "compiled"],
    ["simulate", "validated"],
    ["deploy", "simulated"],
    ["verify", "deployed"],
    ["launch", "verified"],
  ])("%s needs a %s project", (stage, required) => {
    expect(requiredStageFor(stage)).toBe(required);
  });
});

describe("assertCanRun", () => {
  const run = (projectStage: string, stage: StageName) => {
    try {
      assertCanRun({ id: "prj_1", stage: projectStage }, stage);
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(ServiceError);
      const e = error as ServiceError;
      expect(e.code).toBe("STATE_CONFLICT");
      expect(e.extensions).toEqual({ stage, projectStage, requiredStage: requiredStageFor(stage) });
      return /already run/.test(e.message) ? "already ran" : "out of order";
    }
  };

  const next = STAGES.slice(1).map((stage, i) => [PAST[STAGES[i] as StageName], stage] as const);
  it.each(next)("a %s project can run %s", (projectStage, stage) => {
    expect(run(projectStage, stage)).toBeNull();
  });

  it.each<[string, StageName, string]>([
    ["generated", "validate", "out of order"], // skipping compile
    ["generated", "launch", "out of order"],
    ["compiled", "deploy", "out of order"],
    ["compiled", "compile", "already ran"], // running a stage twice
    ["validated", "compile", "already ran"], // going back
    ["launched", "verify", "already ran"],
    ["launched", "launch", "already ran"],
    ["deployed", "deploy", "already ran"],
  ])("a %s project cannot run %s (%s)", (projectStage, stage, why) => {
    expect(run(projectStage, stage)).toBe(why);
  });
});
