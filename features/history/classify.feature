@history
Feature: Classification and tool-call units
  One classification, detected per message, for both provider formats. A tool
  call and the results answering its ids form one unit that no operation may
  split. Conversations use the notation of features/README.md.

  @CLS-1 @UNIT-1
  Scenario Outline: <format> classes and units
    Given the <format> conversation: system, user, assistant, call(a b), result(a), result(b), user
    When the history is classified
    Then the classes are system, user_prompt, assistant_text, tool_call, tool_result, tool_result, user_prompt
    And the units are 1; 2; 3; 4-6; 7

    Examples:
      | format    |
      | OpenAI    |
      | Anthropic |

  @CLS-1 @UNIT-1
  Scenario: Anthropic parallel calls answered by one message are one unit of two
    Given the Anthropic conversation: system, user, call(a b), result(a b), assistant
    When the history is classified
    Then the classes are system, user_prompt, tool_call, tool_result, assistant_text
    And the units are 1; 2; 3-4; 5

  @CLS-1 @UNIT-1
  Scenario: results may come in any order
    Given the OpenAI conversation: user, call(a b c), result(c), result(a), result(b), assistant
    When the history is classified
    Then the units are 1; 2-5; 6

  @CLS-1 @UNIT-1
  Scenario: pairs appended one by one are separate units
    Given the Anthropic conversation: user, call(a), result(a), call(b), result(b), call(c), result(c)
    When the history is classified
    Then the units are 1; 2-3; 4-5; 6-7

  @CLS-1
  Scenario: text beside tool blocks does not change the class; developer is system; other roles are other
    Given the conversation:
      """json
      [
        {"role": "developer", "content": "be brief"},
        {"role": "user", "content": [{"type": "text", "text": "please"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "ok"}, {"type": "tool_use", "id": "t1", "name": "ls", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "a.go"}, {"type": "text", "text": "and hurry"}]},
        {"role": "assistant", "content": "done", "tool_calls": []},
        {"role": "function", "name": "legacy", "content": "x"}
      ]
      """
    When the history is classified
    Then the classes are system, user_prompt, tool_call, tool_result, assistant_text, other

  @CLS-1
  Scenario: an assistant message may carry calls of both formats
    Given the conversation:
      """json
      [
        {"role": "assistant", "content": [{"type": "tool_use", "id": "b", "name": "ls", "input": {}}], "tool_calls": [{"id": "a", "type": "function", "function": {"name": "ls", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "a", "content": "x"},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "b", "content": "y"}]}
      ]
      """
    When the history is classified
    Then the classes are tool_call, tool_result, tool_result
    And the units are 1-3

  @CLS-2
  Scenario Outline: a message whose tool members are <what> is invalid
    Given the conversation:
      """json
      [{"role": "user", "content": "hi"}, <message>]
      """
    When the history is classified
    Then the request fails with "invalid_message"
    And the error message mentions "messages[1]"
    And the error message mentions "<member>"

    Examples:
      | what                         | member       | message                                                                                        |
      | tool_calls not an array      | tool_calls   | {"role": "assistant", "tool_calls": {"id": "a"}}                                               |
      | a tool call without id       | id           | {"role": "assistant", "tool_calls": [{"type": "function", "function": {"name": "f"}}]}         |
      | a tool call with an empty id | id           | {"role": "assistant", "tool_calls": [{"id": "", "type": "function"}]}                          |
      | a tool_use block without id  | id           | {"role": "assistant", "content": [{"type": "tool_use", "name": "f", "input": {}}]}             |
      | a tool_result without id     | tool_use_id  | {"role": "user", "content": [{"type": "tool_result", "content": "x"}]}                         |
      | a tool message without id    | tool_call_id | {"role": "tool", "content": "x"}                                                               |
      | a tool message with a number | tool_call_id | {"role": "tool", "tool_call_id": 7, "content": "x"}                                            |

  # The other side of CLS-2's list: those are the only malformed tool
  # members. A tool_calls element needs only its non-empty string id (no
  # type, no function), a tool_use block only its id (no name, no input), a
  # tool_result block only its tool_use_id (no content), and a tool message
  # only its tool_call_id (MSG-1: content is optional). So by CLS-1 message
  # 2 is a tool_call declaring a, 3 a tool_result answering a, 4 a tool_call
  # declaring b, 5 a tool_result answering b; by UNIT-1 each call and the
  # result right after it are one unit, and the prompt is a unit of one.
  @CLS-2 @CLS-1
  Scenario: tool members need nothing but their ids
    Given the conversation:
      """json
      [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "tool_calls": [{"id": "a"}]},
        {"role": "tool", "tool_call_id": "a"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "b"}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "b"}]}
      ]
      """
    When the history is classified
    Then the classes are user_prompt, tool_call, tool_result, tool_call, tool_result
    And the units are 1; 2-3; 4-5

  @UNIT-2
  Scenario Outline: <format>: <structure> is refused as <code>
    Given the <format> conversation: <conversation>
    When the history is classified
    Then the request fails with "invalid_message"
    And the error message mentions "<code>"
    And the error message mentions "messages[<index>]"

    Examples:
      | format    | structure                           | conversation                                             | code                     | index |
      | OpenAI    | a result with no call               | user, result(a), assistant                               | orphan_tool_result       | 1     |
      | Anthropic | a result with no call               | user, result(a), assistant                               | orphan_tool_result       | 1     |
      | OpenAI    | a call missing a result             | user, call(a b), result(a), assistant                    | unanswered_tool_call     | 1     |
      | Anthropic | a call missing a result             | user, call(a b), result(a), assistant                    | unanswered_tool_call     | 1     |
      | OpenAI    | a call with no result at the end    | user, call(a)                                            | unanswered_tool_call     | 1     |
      | OpenAI    | a result after another message      | user, call(a), assistant, result(a)                      | unanswered_tool_call     | 1     |
      | OpenAI    | a duplicate call id                 | user, call(a), result(a), call(a), result(a)             | duplicate_tool_call_id   | 3     |
      | Anthropic | a call id answered twice            | user, call(a b), result(a a), result(b)                  | tool_call_answered_twice | 1     |
      | OpenAI    | a call id answered twice            | user, call(a b), result(a), result(a), result(b)         | tool_call_answered_twice | 1     |
      | OpenAI    | a result for an id its call lacks   | user, call(a), result(b)                                 | orphan_tool_result       | 2     |
