@budget
Feature: The token budget: counts, limits, thresholds
  Each message counts its role and its text exactly, and anything that is not
  text by ceil(length of its JSON / 4) (003). Limits come from one registry;
  an unknown model is an error. Messages written "role:N" hold exactly N
  tokens (the role is one token, " the" repeated is one token each).

  @TOK-2 @TOK-3
  Scenario: what each kind of message counts (expected values from npm tiktoken and JSON.stringify)
    Given the conversation:
      """json
      [
        {"role": "user", "content": "hello world"},
        {"role": "assistant", "content": [{"type": "text", "text": "hello world"}, {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}]},
        {"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"main.go\"}"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "hello world"}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "hello world"},
        {"role": "user", "content": {"type": "custom", "v": 1}},
        {"role": "developer", "content": "<|endoftext|> 😀 你好"}
      ]
      """
    When the tokens are counted
    Then the per-message counts are 3, 26, 27, 3, 3, 7, 12
    And the count is 81 tokens

  @TOK-3
  Scenario: counts add up over messages
    Given the budget conversation: system:10, user:20, assistant:30
    When the tokens are counted
    Then the per-message counts are 10, 20, 30
    And the count is 60 tokens

  @LIM-1
  Scenario Outline: the limit of <model> is <limit>
    Given the budget conversation: user:2
    When the budget is checked for "<model>"
    Then the limit is <limit>

    Examples:
      | model             | limit   |
      | gemini-3-pro      | 1000000 |
      | claude-3.5-sonnet | 200000  |
      | gpt-4o            | 128000  |

  @LIM-1
  Scenario: a request may add a model and override another
    Given a model "local-llm" with a limit of 4096 tokens
    And a model "gpt-4o" with a limit of 1000 tokens
    And the budget conversation: user:2
    When the budget is checked for "local-llm"
    Then the limit is 4096
    When the budget is checked for "gpt-4o"
    Then the limit is 1000

  @LIM-2
  Scenario: an unknown model is an error, never a default
    Given the budget conversation: user:2
    When the budget is checked for "gpt-5-turbo-preview"
    Then the request fails with "unknown_model"
    And the error message mentions "gpt-5-turbo-preview"

  @THR-1 @THR-2
  Scenario Outline: <tokens> tokens of a limit of 100: approaching <approaching>, at the limit <at>
    Given a model "test" with a limit of 100 tokens
    And the budget conversation: user:<tokens>
    When the budget is checked for "test"
    Then it is <approaching_check> approaching the limit
    And it is <at_check> at the limit

    Examples:
      | tokens | approaching | at  | approaching_check | at_check |
      | 79     | no          | no  | not               | not      |
      | 80     | no          | no  | not               | not      |
      | 81     | yes         | no  |                   | not      |
      | 95     | yes         | no  |                   | not      |
      | 96     | yes         | yes |                   |          |
      | 120    | yes         | yes |                   |          |

  @THR-1 @THR-2
  Scenario Outline: whole-token boundaries of gpt-4o: <tokens> tokens
    Given the budget conversation: user:<tokens>
    When the budget is checked for "gpt-4o"
    Then it is <approaching> approaching the limit
    And it is <at> at the limit

    Examples:
      | tokens | approaching | at   |
      | 102400 | not         | not  |
      | 102401 |             | not  |
      | 121600 |             | not  |
      | 121601 |             |      |

  @LIM-2 @PROTO-2
  Scenario: an empty model name is a malformed request, not an unknown model
    # protocol.md, budget.check: model is a non-empty string.
    When the request "budget.check" is sent with params:
      """json
      {"messages": [{"role": "user", "content": "hi"}], "model": ""}
      """
    Then the response is an error of kind "invalid_params"
