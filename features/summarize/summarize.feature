@window.summarize
Feature: Summarization of evicted messages
  With summarize_on_trim, evicted messages are condensed into one
  "[Conversation Summary]" assistant message through an injected summarizer,
  at most once per ten evicted messages, falling back to plain eviction on
  failure (002, 004 task 122). Messages m1…mN are a system prompt (m1), then
  users and assistants taking turns; appended messages continue the numbering.

  Background:
    Given a window with config:
      """json
      {"max_messages": 6, "preserve_first_n": 1, "preserve_last_n": 2, "summarize_on_trim": true}
      """

  @SUM-2 @SUM-3 @SUM-4 @SUM-1
  Scenario: one synthetic message replaces the evicted ones, between head and the rest
    Given a conversation of 16 messages
    When the conversation is trimmed with a summarizer that replies "  Read parser.go; the bug is in Parse.  "
    Then the summarizer was called once with max_tokens 1024
    And the summarizer prompt covers m2-m12
    And the trimmed conversation reads m1, summary, m13-m16
    And the summary message is:
      """json
      {"role": "assistant", "content": "[Conversation Summary]\nRead parser.go; the bug is in Parse."}
      """
    And the evicted messages are messages 2-12

  @SUM-2 @SUM-3 @MET-1
  Scenario: the summary counts toward the cap and the estimate, not toward the input counts
    Given a conversation of 16 messages
    When the conversation is trimmed with a summarizer that replies "S1"
    Then the trimmed conversation has 6 messages
    And the metrics are total 16, preserved 5, evicted 11, estimated tokens 10

  @SUM-7
  Scenario: a failing summarizer falls back to plain eviction with a warning, never inserting the error
    Given a conversation of 16 messages
    When the conversation is trimmed with a summarizer that fails with "upstream 503: overloaded"
    Then the summarizer was called once with max_tokens 1024
    And the trimmed conversation reads m1, m12-m16
    And there is no summary
    And the warnings include "summary_failed"
    And no returned message contains "upstream 503"

  @SUM-7
  Scenario: a summarizer that does not answer in time is a failure
    Given a conversation of 16 messages
    When the conversation is trimmed with a summarizer that answers after 3000 ms but times out after 100 ms
    Then the trimmed conversation reads m1, m12-m16
    And the warnings include "summary_failed"
    And no returned message contains "too late"

  @SUM-7
  Scenario: a script whose delay equals its timeout does not answer in time (D-44)
    Given a conversation of 16 messages
    When the conversation is trimmed with a summarizer that answers after 100 ms but times out after 100 ms
    Then the trimmed conversation reads m1, m12-m16
    And the warnings include "summary_failed"
    And no returned message contains "too late"

  @SUM-7
  Scenario: a script whose delay is shorter than its timeout answers at once, however long the delay (D-44)
    Given a conversation of 16 messages
    When the conversation is trimmed with a summarizer that answers after 29999 ms but times out after 30000 ms
    Then the summary message is:
      """json
      {"role": "assistant", "content": "[Conversation Summary]\ntoo late"}
      """

  @SUM-7
  Scenario: an empty reply is not a summary
    Given a conversation of 16 messages
    When the conversation is trimmed with a summarizer that replies " \n\t "
    Then the trimmed conversation reads m1, m12-m16
    And there is no summary
    And the warnings include "summary_empty"

  @SUM-6
  Scenario: evicted tool results without text are not summarized
    Given a window with config:
      """json
      {"max_messages": 4, "preserve_first_n": 1, "preserve_last_n": 2, "summarize_on_trim": true}
      """
    And the OpenAI conversation: system, call(a), result(a), call(b), result(b), call(c), result(c), call(d), result(d), call(e), result(e), call(f), result(f), user, assistant
    When the conversation is trimmed with a summarizer that replies "S1"
    Then the summarizer was not called
    And the trimmed conversation is messages 1, 14, 15
    And the warnings include "summary_skipped_no_text"

  # Meaningful text is text beyond white space, and white space is Unicode
  # White_Space (D-31), not ASCII alone: U+3000, U+2028, U+00A0, U+0085,
  # U+1680, U+202F, U+205F and U+2029 are all white space. Head m1, tail
  # m13-m14; planned for a summary (max 3 = head + tail) the trim would evict
  # m2-m12, 11 messages, so the text is checked: none. No call; plain
  # windowing with max 4 keeps one middle message, m12.
  @SUM-6
  Scenario: evicted messages of Unicode white space alone are not meaningful text
    Given a window with config:
      """json
      {"max_messages": 4, "preserve_first_n": 1, "preserve_last_n": 2, "summarize_on_trim": true}
      """
    And the conversation:
      """json
      [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "\u3000"},
        {"role": "assistant", "content": "\u2028"},
        {"role": "user", "content": "\u00a0\u3000"},
        {"role": "assistant", "content": "\u0085"},
        {"role": "user", "content": [{"type": "text", "text": "\u1680"}]},
        {"role": "assistant", "content": "\u202f\u205f"},
        {"role": "user", "content": "\u2029"},
        {"role": "assistant", "content": "\u3000\u3000\u3000"},
        {"role": "user", "content": "\u000b\u000c"},
        {"role": "assistant", "content": "\u2003"},
        {"role": "user", "content": "\u3000"},
        {"role": "user", "content": "Now the lexer."},
        {"role": "assistant", "content": "On it."}
      ]
      """
    When the conversation is trimmed with a summarizer that replies "S1"
    Then the summarizer was not called
    And the trimmed conversation is messages 1, 12, 13, 14
    And the warnings include "summary_skipped_no_text"

  # 002 edge case 2 says "no meaningful text content". Worked out from SUM-3,
  # SUM-5, SUM-6, WIN-4 and D-20 (a user message of tool_result blocks is a
  # tool result): head m1, tail m13-m14, middle m2-m12 (units [2,3] [4,5]
  # [6,7] [8,9] [10,11] [12]). Planned for a summary (max 3 = head + tail)
  # the trim would evict all 11, so c = 11 >= 10 and the text is checked.
  # The covered messages that are not tool results hold only the text blocks
  # "  " and "\n", tool_use blocks and the string " \t " - all white space;
  # the text inside the tool results ("package parser", "package lexer")
  # does not count. So no call; plain windowing with max 4 keeps
  # keep_middle = 4 - 1 - 2 = 1 middle message, the last one (m12, a unit of
  # its own), and evicts m2-m11.
  @SUM-6
  Scenario: Anthropic tool results and blank text are not meaningful text
    Given a window with config:
      """json
      {"max_messages": 4, "preserve_first_n": 1, "preserve_last_n": 2, "summarize_on_trim": true}
      """
    And the conversation:
      """json
      [
        {"role": "user", "content": "Fix the parser and the lexer."},
        {"role": "assistant", "content": [{"type": "text", "text": "  "}, {"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {"path": "parser.go"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "package parser"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "\n"}, {"type": "tool_use", "id": "toolu_2", "name": "read_file", "input": {"path": "lexer.go"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_2", "content": [{"type": "text", "text": "package lexer"}]}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_3", "name": "run_tests", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_3", "content": "ok"}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_4", "name": "run_tests", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_4", "content": "ok"}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_5", "name": "run_tests", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_5", "content": "ok"}]},
        {"role": "assistant", "content": " \t "},
        {"role": "user", "content": "Now the lexer."},
        {"role": "assistant", "content": "On it."}
      ]
      """
    When the conversation is trimmed with a summarizer that replies "S1"
    Then the summarizer was not called
    And the trimmed conversation is messages 1, 12, 13, 14
    And the evicted messages are messages 2-11
    And the warnings include "summary_skipped_no_text"

  @SUM-5 @SUM-4
  Scenario: the rate limit holds a summary back until ten messages were evicted, then covers them all
    Given a conversation of 9 messages
    When the conversation is trimmed with a summarizer that replies "S1"
    Then the summarizer was not called
    And the trimmed conversation reads m1, m5-m9
    When 3 messages are appended to the trimmed conversation
    And the conversation is trimmed with a summarizer that replies "S1"
    Then the summarizer was not called
    And the trimmed conversation reads m1, m8-m12
    When 3 messages are appended to the trimmed conversation
    And the conversation is trimmed with a summarizer that replies "S1"
    Then the summarizer was called once with max_tokens 1024
    And the summarizer prompt covers m2-m11
    And the trimmed conversation reads m1, summary, m12-m15
    When 3 messages are appended to the trimmed conversation
    And the conversation is trimmed with a summarizer that replies "S2"
    Then the summarizer was not called
    And the trimmed conversation reads m1, m14-m18

  @SUM-4 @SUM-5
  Scenario: an earlier summary that is evicted is covered by the next one
    Given a conversation of 9 messages
    When the conversation is trimmed with a summarizer that replies "S1"
    And 3 messages are appended to the trimmed conversation
    And the conversation is trimmed with a summarizer that replies "S1"
    And 3 messages are appended to the trimmed conversation
    And the conversation is trimmed with a summarizer that replies "S1"
    And 3 messages are appended to the trimmed conversation
    And the conversation is trimmed with a summarizer that replies "S2"
    And 3 messages are appended to the trimmed conversation
    And the conversation is trimmed with a summarizer that replies "S2"
    Then the summarizer was not called
    When 3 messages are appended to the trimmed conversation
    And the conversation is trimmed with a summarizer that replies "S2"
    Then the summarizer was called once with max_tokens 1024
    And the summarizer prompt covers summary1, m12-m20
    And the trimmed conversation reads m1, summary, m21-m24

  @SUM-7 @SUM-4
  Scenario: after a failure the counter is kept and the next trim retries, covering everything
    Given a conversation of 9 messages
    When the conversation is trimmed with a summarizer that replies "S1"
    And 3 messages are appended to the trimmed conversation
    And the conversation is trimmed with a summarizer that replies "S1"
    And 3 messages are appended to the trimmed conversation
    And the conversation is trimmed with a summarizer that fails with "timeout talking to the provider"
    Then the warnings include "summary_failed"
    And the trimmed conversation reads m1, m11-m15
    When 3 messages are appended to the trimmed conversation
    And the conversation is trimmed with a summarizer that replies "S2"
    Then the summarizer was called once with max_tokens 1024
    And the summarizer prompt covers m2-m14
    And the trimmed conversation reads m1, summary, m15-m18

  @SUM-6 @SUM-5
  Scenario: a skip for lack of text empties the pending messages
    Given a window with config:
      """json
      {"max_messages": 4, "preserve_first_n": 1, "preserve_last_n": 2, "summarize_on_trim": true}
      """
    And the OpenAI conversation: system, call(a), result(a), call(b), result(b), call(c), result(c), call(d), result(d), call(e), result(e), call(f), result(f), user, assistant
    When the conversation is trimmed with a summarizer that replies "S1"
    Then the warnings include "summary_skipped_no_text"
    When 3 messages are appended to the trimmed conversation
    And the conversation is trimmed with a summarizer that replies "S1"
    Then the summarizer was not called

  @SUM-8
  Scenario: summarize_on_trim false behaves exactly like plain windowing, even with a summarizer
    Given a window with config:
      """json
      {"max_messages": 6, "preserve_first_n": 1, "preserve_last_n": 2, "summarize_on_trim": false}
      """
    And a conversation of 16 messages
    When the conversation is trimmed with a summarizer that replies "S1"
    Then the summarizer was not called
    And the trimmed conversation reads m1, m12-m16
    And there is no summary
    And there are no warnings

  @SUM-8
  Scenario: without a summarizer the trim is plain and records nothing for later
    Given a conversation of 16 messages
    When the conversation is trimmed
    Then the trimmed conversation reads m1, m12-m16
    When 3 messages are appended to the trimmed conversation
    And the conversation is trimmed with a summarizer that replies "S1"
    Then the summarizer was not called

  @SUM-3 @WIN-3
  Scenario: when head and tail fill the cap the summary is added between them
    Given a window with config:
      """json
      {"max_messages": 3, "preserve_first_n": 1, "preserve_last_n": 2, "summarize_on_trim": true}
      """
    And a conversation of 14 messages
    When the conversation is trimmed with a summarizer that replies "S1"
    Then the trimmed conversation reads m1, summary, m13, m14
    And the summarizer prompt covers m2-m12
    And the warnings include "preserve_exceeds_max"

  @SUM-1 @SUM-9
  Scenario: the prompt format, for both providers' messages
    Given the conversation:
      """json
      [
        {"role": "system", "content": "You are a coding agent."},
        {"role": "user", "content": "Fix the failing test in parser.go"},
        {"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"parser.go\"}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "package parser\nfunc Parse() {}"},
        {"role": "assistant", "content": [{"type": "text", "text": "Found it."}, {"type": "tool_use", "id": "toolu_2", "name": "write_file", "input": {"path": "parser.go", "content": "fixed"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_2", "content": [{"type": "text", "text": "ok"}]}]},
        {"role": "user", "content": [{"type": "text", "text": "see"}, {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBO"}}]},
        {"role": "assistant"},
        {"role": "user", "content": 42}
      ]
      """
    When a summary is requested with a summarizer that replies "  Fixed Parse.  "
    Then the summarizer was called once with max_tokens 1024
    And the summary is "Fixed Parse."
    And the summarizer prompt is:
      """
      Summarize the following conversation history concisely. Focus on: what files were read/written, what decisions were made, what problems were encountered, and what the current state of the task is. Be factual and brief.

      [system] You are a coding agent.

      [user] Fix the failing test in parser.go

      [assistant] tool_call read_file {"path":"parser.go"}

      [tool] tool_result call_1: package parser
      func Parse() {}

      [assistant] Found it.
      tool_use write_file {"path":"parser.go","content":"fixed"}

      [user] tool_result toolu_2: ok

      [user] see
      {"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBO"}}

      [assistant] 

      [user] 42
      """

  @SUM-1
  Scenario: a tool_use block without input is rendered with {} in the prompt
    Given the conversation:
      """json
      [
        {"role": "user", "content": "Run the tests"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "run_tests"}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}]}
      ]
      """
    When a summary is requested with a summarizer that replies "Tests pass."
    Then the summarizer prompt is:
      """
      Summarize the following conversation history concisely. Focus on: what files were read/written, what decisions were made, what problems were encountered, and what the current state of the task is. Be factual and brief.

      [user] Run the tests

      [assistant] tool_use run_tests {}

      [user] tool_result toolu_1: ok
      """

  @SUM-1
  Scenario: each tool call renders on its own, whatever the others hold (D-48)
    Given the conversation:
      """json
      [
        {"role": "assistant", "content": "c", "tool_calls": [
          {"id": "t", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"a.go\"}"}},
          {"id": "s", "type": "function", "function": {"name": "grep", "arguments": {"pattern": "Parse"}}},
          {"id": "r", "type": "function", "function": "f"},
          {"id": "q", "type": "function", "function": {"name": 5, "arguments": null}}
        ]},
        {"role": "tool", "tool_call_id": "t", "content": "package a"},
        {"role": "tool", "tool_call_id": "s", "content": "a.go:3"},
        {"role": "tool", "tool_call_id": "r", "content": "?"},
        {"role": "tool", "tool_call_id": "q", "content": "?"}
      ]
      """
    When a summary is requested with a summarizer that replies "ok"
    Then the summarizer prompt is:
      """
      Summarize the following conversation history concisely. Focus on: what files were read/written, what decisions were made, what problems were encountered, and what the current state of the task is. Be factual and brief.

      [assistant] c
      tool_call read_file {"path":"a.go"}
      tool_call grep {"pattern":"Parse"}
      tool_call  
      tool_call 5 null

      [tool] tool_result t: package a

      [tool] tool_result s: a.go:3

      [tool] tool_result r: ?

      [tool] tool_result q: ?
      """

  @SUM-1
  Scenario: a block's name or id that is not a string renders in compact form, the block keeps its shape (D-48)
    Given the conversation:
      """json
      [
        {"role": "assistant", "content": [{"type": "text", "text": "go", "name": 7}, {"type": "tool_use", "id": "y", "name": 5, "input": "in"}]},
        {"role": "system", "content": [{"type": "tool_result", "tool_use_id": 5, "content": "c"}, {"type": "tool_result", "tool_use_id": null, "content": "d"}]}
      ]
      """
    When a summary is requested with a summarizer that replies "ok"
    Then the summarizer prompt is:
      """
      Summarize the following conversation history concisely. Focus on: what files were read/written, what decisions were made, what problems were encountered, and what the current state of the task is. Be factual and brief.

      [assistant] go
      tool_use 5 "in"

      [system] tool_result 5: c
      tool_result null: d
      """

  @SUM-9
  Scenario: summarize reports a failing summarizer as an error
    Given a conversation of 3 messages
    When a summary is requested with a summarizer that fails with "quota exceeded"
    Then the request fails with "summarizer_failed"
    And the error message mentions "quota exceeded"

  @SUM-9 @SUM-2
  Scenario: white space is Unicode's White_Space, not a language's trim (D-31)
    # U+FEFF and U+001C are not White_Space: JavaScript's trim removes the
    # first, Python's strip the second; U+3000 and U+0085 are White_Space.
    Given a conversation of 3 messages
    When a summary is requested with a summarizer that replies "\u0085\ufeff ok \u001c\u3000"
    Then the summary is "\ufeff ok \u001c"

  # D-43: head 2 and tail 2 do not fill max_messages 5, but they fill the 4
  # places a summarizing trim plans with (SUM-3): the trim takes the path of
  # WIN-3 (head, summary, tail) and warns as WIN-3 says.
  @SUM-3 @WIN-3
  Scenario: a summary plan that head and tail fill takes the path of WIN-3 and warns (D-43)
    Given a window with config:
      """json
      {"max_messages": 5, "preserve_first_n": 2, "preserve_last_n": 2, "summarize_on_trim": true}
      """
    And a conversation of 16 messages
    When the conversation is trimmed with a summarizer that replies "S"
    Then the trimmed conversation reads m1-m2, summary, m15-m16
    And the warnings include "preserve_exceeds_max"
