@budget
Feature: pruneMessages, summarizeAndCompress and the check before each call
  When a conversation approaches a model's limit the oldest units after the
  system prompt are pruned; above 95% it is compressed into [system, summary,
  last user prompt] with one summarizer call; still too large, it is
  exhausted (003). Messages written "role:N" hold exactly N tokens.

  Background:
    Given a model "test" with a limit of 100 tokens

  @PRN-1 @PRN-2
  Scenario: the oldest messages after the system prompt go first, until below 80%
    Given the budget conversation: system:10, user:20, assistant:20, user:20, assistant:20, user:10
    When the conversation is pruned for "test"
    Then the budget keeps messages 1, 4-6
    And the budget removed messages 2, 3

  @PRN-3
  Scenario: a conversation below the target is returned unchanged
    Given the budget conversation: system:10, user:20, assistant:20
    When the conversation is pruned for "test"
    Then the budget keeps messages 1-3
    And the budget removed messages none

  @PRN-1 @PRN-5
  Scenario Outline: target ratio <ratio> removes <removed>
    Given the budget conversation: system:10, user:20, assistant:20, user:20, assistant:20, user:10
    When the conversation is pruned for "test" with target ratio <ratio>
    Then the budget removed messages <removed>

    Examples:
      | ratio | removed |
      | 0.5   | 2-4     |
      | 0.8   | 2, 3    |
      | 0.9   | 2       |
      | 1     | 2       |

  @PRN-2
  Scenario: when only the first and the final message are left, they are kept even above the target
    Given the budget conversation: system:50, user:30, assistant:30, user:40
    When the conversation is pruned for "test"
    Then the budget keeps messages 1, 4

  @PRN-1 @PRN-2 @UNIT-3
  Scenario Outline: <format>: pruning removes whole units and keeps the final one whole
    Given a model "tiny" with a limit of 1 tokens
    And the <format> conversation: system, user, call(a), result(a), assistant, call(b), result(b)
    When the conversation is pruned for "tiny"
    Then the budget keeps messages 1, 6, 7

    Examples:
      | format    |
      | OpenAI    |
      | Anthropic |

  @PRN-4
  Scenario: pruning nothing at all is an invariant violation, never an empty result
    Given a conversation of 0 messages
    When the conversation is pruned for "test"
    Then the request fails with "invariant_violation"

  @PRN-1 @validation
  Scenario Outline: target ratio <ratio> is refused
    Given the budget conversation: system:10, user:20
    When the conversation is pruned for "test" with target ratio <ratio>
    Then the request fails with "invalid_params"
    And the error message mentions "target_ratio"

    Examples:
      | ratio |
      | 0     |
      | 1.5   |
      | -0.8  |
      | 0.805 |
      | "0.8" |

  @LIM-2 @PRN-1
  Scenario: pruning for an unknown model is an error
    Given the budget conversation: system:10, user:20
    When the conversation is pruned for "no-such-model"
    Then the request fails with "unknown_model"

  @PREP-5 @PRN-1 @PRN-2
  Scenario: 003's integration test: 500 turns above 900,000 tokens pruned under 80% of gemini-3-pro
    Given a synthetic conversation of 500 turns of 1000 tokens per message
    When the conversation is pruned for "gemini-3-pro"
    Then the kept conversation is below 80% of the limit of "gemini-3-pro"

  @CMP-1
  Scenario: [system, summary, last user prompt], with the messages between summarized
    Given the OpenAI conversation: system, user, assistant, user
    When the conversation is compressed with a summarizer that replies "Asked twice; answered once."
    Then the compressed conversation is:
      """json
      [
        {"role": "system", "content": "system 1"},
        {"role": "assistant", "content": "Asked twice; answered once."},
        {"role": "user", "content": "user 4"}
      ]
      """
    And summaryFn was given messages 2, 3

  @CMP-1
  Scenario: a conversation that ends in a tool exchange keeps its last prompt and summarizes the exchange
    Given the OpenAI conversation: system, user, call(a), result(a)
    When the conversation is compressed with a summarizer that replies "Read a."
    Then the compressed conversation is:
      """json
      [
        {"role": "system", "content": "system 1"},
        {"role": "assistant", "content": "Read a."},
        {"role": "user", "content": "user 2"}
      ]
      """
    And summaryFn was given messages 3, 4

  @CMP-1 @CLS-1
  Scenario: in the Anthropic format a tool result is not the last user message
    Given the Anthropic conversation: user, call(a), result(a), assistant
    When the conversation is compressed with a summarizer that replies "S"
    Then the compressed conversation is:
      """json
      [
        {"role": "assistant", "content": "S"},
        {"role": "user", "content": "user 1"}
      ]
      """
    And summaryFn was given messages 2-4

  @CMP-2
  Scenario: a failing summaryFn fails compression
    Given the OpenAI conversation: system, user, assistant, user
    When the conversation is compressed with a summarizer that fails with "quota exceeded"
    Then the request fails with "summarizer_failed"
    And the error message mentions "quota exceeded"

  @PREP-1
  Scenario: at 80% nothing changes
    Given the budget conversation: system:40, user:40
    When the request is prepared for "test" with a summarizer that replies "S"
    Then the prepared conversation is messages 1, 2
    And there are no events
    And summaryFn was called 0 times

  @PREP-2 @THR-1
  Scenario Outline: at <tokens> tokens the conversation is pruned with a warning event
    Given the budget conversation: system:10, user:40, assistant:<middle>, user:20
    When the request is prepared for "test" with a summarizer that replies "S"
    Then the prepared conversation is messages 1, 3, 4
    And the events are:
      """json
      [{"event": "context_window_approaching", "tokenCount": <tokens>, "limit": 100}]
      """
    And summaryFn was called 0 times

    Examples:
      | tokens | middle |
      | 81     | 11     |
      | 95     | 25     |

  @PREP-3 @THR-2
  Scenario: above 95% the conversation is compressed with one call
    Given the budget conversation: system:10, user:40, assistant:26, user:20
    When the request is prepared for "test" with a summarizer that replies "S"
    Then the prepared conversation is:
      """json
      [{"role": "system", "content": " the the the the the the the the the"}, {"role": "assistant", "content": "S"}, {"role": "user", "content": " the the the the the the the the the the the the the the the the the the the"}]
      """
    And the events are:
      """json
      [{"event": "context_compressed", "originalTokenCount": 96, "compressedTokenCount": 32}]
      """
    And summaryFn was called 1 time

  @PREP-4 @PREP-3
  Scenario: a giant final message exhausts the window after one compression, never recursing
    Given the budget conversation: system:10, user:90
    When the request is prepared for "test" with a summarizer that replies "S"
    Then the request fails with "context_window_exhausted"
    And the error data has tokenCount 102, limit 100 and model "test"
    And summaryFn was called 1 time

  @PREP-3
  Scenario: a failing summarizer falls back to pruning and says so in an event
    Given the budget conversation: system:10, user:40, assistant:26, user:20
    When the request is prepared for "test" with a summarizer that fails with "quota exceeded"
    Then the prepared conversation is messages 1, 3, 4
    And the events are:
      """json
      [{"event": "context_compression_failed", "error": "quota exceeded"}]
      """

  @PREP-4 @PREP-3
  Scenario: a failing summarizer's fallback that is still at the limit exhausts the window
    # The summarizer fails, pruning keeps the first and the final message,
    # and those two alone count 100 of 100 tokens: still above 95%.
    Given the budget conversation: system:10, user:90
    When the request is prepared for "test" with a summarizer that fails with "quota exceeded"
    Then the request fails with "context_window_exhausted"
    And the error data has tokenCount 100, limit 100 and model "test"
    And summaryFn was called 1 time

  @LIM-2 @PREP-1
  Scenario: preparing for an unknown model is an error
    Given the budget conversation: system:10, user:20
    When the request is prepared for "no-such-model" with a summarizer that replies "S"
    Then the request fails with "unknown_model"

  @UNIT-2 @PREP-1 @PREP-2 @PREP-3
  Scenario Outline: <format>: preparing refuses a malformed tool structure <where>
    # A result whose call is nowhere, then 15 and 20 tokens of user prompt:
    # 37 tokens in all. Every path of the check before a call refuses it —
    # it is neither passed on unchanged nor handed to the summarizer.
    Given a model "m" with a limit of <limit> tokens
    And the conversation:
      """
      [<orphan>,
       {"role":"user","content":" the the the the the the the the the the the the the the"},
       {"role":"user","content":" the the the the the the the the the the the the the the the the the the the"}]
      """
    When the request is prepared for "m" with a summarizer that replies "S"
    Then the request fails with "invalid_message"
    And the error message mentions "orphan_tool_result"
    And summaryFn was called 0 times

    Examples:
      | format    | where                | limit | orphan                                                                           |
      | OpenAI    | under 80%            | 1000  | {"role":"tool","tool_call_id":"x","content":"r"}                                 |
      | OpenAI    | between 80% and 95%  | 40    | {"role":"tool","tool_call_id":"x","content":"r"}                                 |
      | OpenAI    | above 95%            | 10    | {"role":"tool","tool_call_id":"x","content":"r"}                                 |
      | Anthropic | under 80%            | 1000  | {"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":"r"}]} |
      | Anthropic | between 80% and 95%  | 40    | {"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":"r"}]} |
      | Anthropic | above 95%            | 10    | {"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":"r"}]} |
