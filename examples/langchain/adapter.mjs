// A convspec adapter over LangChain's trimMessages (@langchain/core), for
// conform's trimmer capability (spec/SPEC.md, section 8d "Any trimmer").
//
// It declares two trimmers, both trimMessages with the options a LangChain
// user writes for a chat model: strategy "last", includeSystem true,
// startOn "human", allowPartial false; one counts messages, the other the
// chars/4 estimate. Each claims what those options promise a user: the
// output is a subsequence with whole tool-call units, it keeps the system
// prompt and the latest human message, stays within maxTokens, leaves a
// conversation that fits alone, is idempotent and never throws. What it
// breaks is recorded, with the smallest input that shows it, in
// baseline.json (see examples/README.md).
//
// Conversion: only the OpenAI format is converted (system/developer →
// SystemMessage, user → HumanMessage, assistant → AIMessage with its
// tool_calls, tool → ToolMessage, any other role → ChatMessage). LangChain
// keeps an Anthropic tool_result inside a HumanMessage, where startOn
// "human" would take it for a prompt; an adapter that splits it into
// ToolMessages could not map the output back message for message, so the
// trimmers declare formats ["openai"]. Every LangChain message carries its
// input position as its id, and the output is mapped back to the input
// messages by that id, so the messages come back exactly as sent.

import { createInterface } from "node:readline";
import {
  AIMessage,
  ChatMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
  trimMessages,
} from "@langchain/core/messages";

const GUARANTEES = ["subsequence", "units", "system", "last_prompt", "bound", "fits", "idempotent", "total"];

const TRIMMERS = [
  { name: "trimMessages/messages", bound: "messages", formats: ["openai"], guarantees: GUARANTEES },
  { name: "trimMessages/chars4", bound: "tokens", counter: "chars4", formats: ["openai"], guarantees: GUARANTEES },
];

class ProtocolError extends Error {
  constructor(kind, code, message) {
    super(message);
    this.kind = kind;
    this.code = code;
  }
}
const invalidParams = (m) => new ProtocolError("invalid_params", -32602, m);
const invalidMessage = (m) => new ProtocolError("invalid_message", -32002, m);

// chars is the EST-2 character count of a message's content: UTF-16 code
// units of a string, of JSON.stringify of anything else, 0 when absent or
// null.
function chars(content) {
  if (content === undefined || content === null) return 0;
  return typeof content === "string" ? content.length : JSON.stringify(content).length;
}

// toLangChain converts one OpenAI-format message; id is its input position.
function toLangChain(m, i) {
  const id = String(i);
  const content = typeof m.content === "string" || Array.isArray(m.content) ? m.content : m.content == null ? "" : JSON.stringify(m.content);
  switch (m.role) {
    case "system":
    case "developer":
      return new SystemMessage({ id, content });
    case "user":
      return new HumanMessage({ id, content });
    case "assistant": {
      const toolCalls = Array.isArray(m.tool_calls)
        ? m.tool_calls.map((c) => ({ id: c.id, name: c.function?.name ?? "", args: parseArgs(c.function?.arguments), type: "tool_call" }))
        : [];
      return new AIMessage({ id, content, tool_calls: toolCalls });
    }
    case "tool":
      return new ToolMessage({ id, content, tool_call_id: m.tool_call_id });
    default:
      return new ChatMessage({ id, content, role: m.role });
  }
}

function parseArgs(text) {
  try {
    const v = JSON.parse(text);
    return v !== null && typeof v === "object" && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

async function trim(params) {
  if (params === null || typeof params !== "object") throw invalidParams("params must be an object");
  const trimmer = TRIMMERS.find((t) => t.name === params.trimmer);
  if (!trimmer) throw invalidParams(`params.trimmer: no trimmer ${JSON.stringify(params.trimmer)} was declared`);
  const { messages, limit } = params;
  if (!Array.isArray(messages)) throw invalidParams("params.messages must be an array");
  if (!Number.isInteger(limit) || limit < 0) throw invalidParams(`params.limit must be a non-negative integer, got ${JSON.stringify(limit)}`);
  messages.forEach((m, i) => {
    if (m === null || typeof m !== "object" || Array.isArray(m)) throw invalidMessage(`messages[${i}]: not an object`);
    if (typeof m.role !== "string" || m.role === "") throw invalidMessage(`messages[${i}]: "role" must be a non-empty string`);
  });
  const original = (lc) => messages[Number(lc.id)];

  const tokenCounter =
    trimmer.bound === "messages"
      ? (msgs) => msgs.length
      : (msgs) => msgs.reduce((sum, lc) => sum + Math.ceil(chars(original(lc).content) / 4), 0);
  const kept = await trimMessages(messages.map(toLangChain), {
    maxTokens: limit,
    tokenCounter,
    strategy: "last",
    includeSystem: true,
    startOn: "human",
    allowPartial: false,
  });
  // trimMessages may return a list holding undefined (includeSystem with
  // nothing kept returns [undefined]); it is passed on as it is, as null
  // on the wire, for the suite to judge.
  return { messages: kept.map((lc) => (lc === undefined ? null : original(lc))) };
}

function initialize(params) {
  if (params?.protocol !== 1) throw invalidParams(`protocol ${params?.protocol} is not supported; this adapter speaks protocol 1`);
  return {
    protocol: 1,
    implementation: { name: "langchain-trimMessages", version: "@langchain/core 1.4.0" },
    capabilities: ["trimmer"],
    trimmers: TRIMMERS,
  };
}

async function answer(line) {
  let req;
  try {
    req = JSON.parse(line);
  } catch {
    return { jsonrpc: "2.0", id: null, error: { code: -32700, message: "not JSON", data: { kind: "parse_error" } } };
  }
  if (req === null || typeof req !== "object" || typeof req.method !== "string") {
    return { jsonrpc: "2.0", id: req?.id ?? null, error: { code: -32600, message: "not a JSON-RPC request", data: { kind: "invalid_request" } } };
  }
  try {
    let result;
    switch (req.method) {
      case "initialize":
        result = initialize(req.params);
        break;
      case "shutdown":
        result = null;
        setImmediate(() => process.exit(0));
        break;
      case "trimmer.trim":
        result = await trim(req.params);
        break;
      default:
        throw new ProtocolError("method_not_found", -32601, `unknown method ${req.method}`);
    }
    return { jsonrpc: "2.0", id: req.id, result };
  } catch (e) {
    const kind = e instanceof ProtocolError ? e.kind : "internal_error";
    const code = e instanceof ProtocolError ? e.code : -32603;
    return { jsonrpc: "2.0", id: req.id, error: { code, message: String(e?.stack ?? e), data: { kind } } };
  }
}

// Requests are answered one at a time, in order.
let queue = Promise.resolve();
const rl = createInterface({ input: process.stdin });
rl.on("line", (line) => {
  if (line.trim() === "") return;
  queue = queue.then(async () => {
    process.stdout.write(JSON.stringify(await answer(line)) + "\n");
  });
});
rl.on("close", () => queue.then(() => process.exit(0)));
