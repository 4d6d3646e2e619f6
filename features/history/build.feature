@history
Feature: Building the messages for a model call
  buildLLMMessages repairs broken tool structures, prunes orphaned prompts,
  then keeps the system prompt and the latest complete exchanges within
  max_messages (001). Tool-call units are never split.

  @BUILD-1
  Scenario: pruning happens before the window, so the budget is not wasted
    Given the OpenAI conversation: system, user, assistant, user, user, user, user, assistant
    When the history is built with max_messages 4
    Then the built history is messages 1, 2, 3, 7, 8

  @BUILD-3 @BUILD-4
  Scenario: everything fits
    Given the OpenAI conversation: system, user, assistant, user, assistant
    When the history is built with max_messages 10
    Then the built history is messages 1-5
    And the build raises no warnings

  @BUILD-3
  Scenario: max_messages 0 means no limit
    Given the OpenAI conversation: system, user, assistant, user, assistant, user, assistant
    When the history is built with max_messages 0
    Then the built history is messages 1-7

  @BUILD-3 @BUILD-5
  Scenario: the window starts at a user prompt, not at a reply without its question
    Given the OpenAI conversation: system, user, assistant, user, assistant, user, assistant
    When the history is built with max_messages 3
    Then the built history is messages 1, 6, 7

  @BUILD-3
  Scenario: every leading system message is kept outside the count
    Given the OpenAI conversation: system, system, user, assistant, user, assistant
    When the history is built with max_messages 2
    Then the built history is messages 1, 2, 5, 6

  @BUILD-3 @BUILD-4
  Scenario: max_messages 1 keeps the system prompt and the latest prompt
    Given the OpenAI conversation: system, user, assistant, user
    When the history is built with max_messages 1
    Then the built history is messages 1, 4

  @BUILD-3 @UNIT-3
  Scenario Outline: <format>: when no exchange fits, the window starts at a unit boundary
    Given the <format> conversation: system, user, call(a), result(a), call(b), result(b), assistant
    When the history is built with max_messages 3
    Then the built history is messages 1, 5-7

    Examples:
      | format    |
      | OpenAI    |
      | Anthropic |

  @BUILD-4 @UNIT-3
  Scenario: a last unit longer than the budget is kept whole
    Given the OpenAI conversation: system, user, call(a b c), result(a), result(b), result(c)
    When the history is built with max_messages 2
    Then the built history is messages 1, 3-6

  @BUILD-2 @BUILD-5
  Scenario Outline: <format>: <structure> is dropped with a warning
    Given the <format> conversation: <conversation>
    When the history is built with max_messages 0
    Then the built history is messages <kept>
    And the build warns "<code>" about messages <dropped>

    Examples:
      | format    | structure                   | conversation                                         | kept       | code                 | dropped |
      | OpenAI    | an orphaned result          | system, user, result(x), assistant                   | 1, 2, 4    | orphan_tool_result   | 3       |
      | Anthropic | an orphaned result          | system, user, result(x), assistant                   | 1, 2, 4    | orphan_tool_result   | 3       |
      | OpenAI    | a call missing a result     | system, user, call(a b), result(a), assistant        | 1, 2, 5    | unanswered_tool_call | 3, 4    |
      | Anthropic | a call with no result       | system, user, call(a), assistant                     | 1, 2, 4    | unanswered_tool_call | 3       |
      | OpenAI    | a trailing unanswered call  | system, user, assistant, user, call(a)               | 1-4        | unanswered_tool_call | 5       |

  @BUILD-2
  Scenario: a call followed by a stranger's result is dropped whole; its own result then follows no call (D-32)
    Given the OpenAI conversation: system, user, call(a), result(x), result(a), assistant
    When the history is built with max_messages 0
    Then the built history is messages 1, 2, 6
    And the build warns "orphan_tool_result" about messages 3, 4
    And the build warns "orphan_tool_result" about message 5

  @BUILD-2
  Scenario: a result after a complete unit is an orphan, and the unit is kept (D-32)
    Given the OpenAI conversation: system, user, call(a), result(a), result(a), assistant
    When the history is built with max_messages 0
    Then the built history is messages 1-4, 6
    And the build warns "orphan_tool_result" about message 5

  @BUILD-2
  Scenario: overlapping problems are one structure, reported under the first code that applies (D-32)
    Given the Anthropic conversation: system, user, call(a), result(a x), assistant
    When the history is built with max_messages 0
    Then the built history is messages 1, 2, 5
    And the build warns "orphan_tool_result" about messages 3, 4

  @BUILD-1 @BUILD-2 @BUILD-5
  Scenario: a repair that leaves two prompts adjacent is followed by pruning
    Given the OpenAI conversation: system, user, call(a), user, assistant
    When the history is built with max_messages 0
    Then the built history is messages 1, 4, 5
    And the build warns "unanswered_tool_call" about message 3

  # The repairs again under a cap that keeps everything: a repair must not
  # depend on max_messages 0, which an implementation may read differently.
  @BUILD-2 @BUILD-5
  Scenario Outline: <format>: <structure> is dropped with a warning under a finite cap too
    Given the <format> conversation: <conversation>
    When the history is built with max_messages 20
    Then the built history is messages <kept>
    And the build warns "<code>" about messages <dropped>

    Examples:
      | format    | structure                   | conversation                                         | kept       | code                 | dropped |
      | OpenAI    | an orphaned result          | system, user, result(x), assistant                   | 1, 2, 4    | orphan_tool_result   | 3       |
      | Anthropic | an orphaned result          | system, user, result(x), assistant                   | 1, 2, 4    | orphan_tool_result   | 3       |
      | OpenAI    | a call missing a result     | system, user, call(a b), result(a), assistant        | 1, 2, 5    | unanswered_tool_call | 3, 4    |
      | Anthropic | a call with no result       | system, user, call(a), assistant                     | 1, 2, 4    | unanswered_tool_call | 3       |
      | OpenAI    | a trailing unanswered call  | system, user, assistant, user, call(a)               | 1-4        | unanswered_tool_call | 5       |

  @BUILD-2
  Scenario: under a finite cap, a call followed by a stranger's result is dropped whole (D-32)
    Given the OpenAI conversation: system, user, call(a), result(x), result(a), assistant
    When the history is built with max_messages 20
    Then the built history is messages 1, 2, 6
    And the build warns "orphan_tool_result" about messages 3, 4
    And the build warns "orphan_tool_result" about message 5

  @BUILD-2
  Scenario: under a finite cap, a result after a complete unit is an orphan (D-32)
    Given the OpenAI conversation: system, user, call(a), result(a), result(a), assistant
    When the history is built with max_messages 20
    Then the built history is messages 1-4, 6
    And the build warns "orphan_tool_result" about message 5

  @BUILD-2
  Scenario: under a finite cap, overlapping problems are one structure (D-32)
    Given the Anthropic conversation: system, user, call(a), result(a x), assistant
    When the history is built with max_messages 20
    Then the built history is messages 1, 2, 5
    And the build warns "orphan_tool_result" about messages 3, 4

  @BUILD-1 @BUILD-2 @BUILD-5
  Scenario: under a finite cap, a repair that leaves two prompts adjacent is followed by pruning
    Given the OpenAI conversation: system, user, call(a), user, assistant
    When the history is built with max_messages 20
    Then the built history is messages 1, 4, 5
    And the build warns "unanswered_tool_call" about message 3

  @BUILD-3 @validation
  Scenario Outline: max_messages <value> is refused
    Given the OpenAI conversation: system, user
    When the history is built with max_messages <value> as written
    Then the request fails with "invalid_params"
    And the error message mentions "max_messages"

    Examples:
      | value  |
      | -1     |
      | 2.5    |
      | "3"    |
      | null   |
