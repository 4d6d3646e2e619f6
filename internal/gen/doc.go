// Package gen draws the inputs of convspec's properties: messages,
// conversations and histories with tool calls and injected defects,
// window configurations and the lengths drawn against them, texts for the
// tokenizer's corners, JSON values with a known serialization, requests
// over the whole input space, and agent-loop runs.
//
// Every generator knows what it built (a message's class, unit and
// character count, a history's units and defects), so that no property has
// to read it back from the JSON. Nothing here knows a target: the formats
// a case may use come from the context (WithFormats), and the models and
// checks that judge an answer live in other packages.
package gen
