// The partner mock reads bodies in one place (sdk/src/mock/request-body.ts) for its msw handlers and its standalone
// server: empty is no body, a JSON object or array is parsed, anything else (a bare `null`, whitespace alone: the
// server's body parser is strict) is flagged so the engine answers 400.
import { describe, expect, it } from "vitest";
import { parseRequestBody } from "../../sdk/src/mock/request-body.ts";

describe("parseRequestBody", () => {
  it.each([
    { text: "", expected: { body: undefined, invalidJson: false } },
    { text: '{"amount":"1.00"}', expected: { body: { amount: "1.00" }, invalidJson: false } },
    { text: "null", expected: { body: undefined, invalidJson: true } },
    { text: "[1,2]", expected: { body: [1, 2], invalidJson: false } },
    { text: "{not json", expected: { body: undefined, invalidJson: true } },
    { text: " ", expected: { body: undefined, invalidJson: true } },
  ])("reads $text", ({ text, expected }) => {
    expect(parseRequestBody(text)).toEqual(expected);
  });
});
