@window
Feature: The window keeps tool-call units whole
  A tool call and its results are one unit (UNIT-1). The window's head ends,
  its tail starts and its kept middle starts on unit boundaries; head and tail
  grow to whole units rather than shrink (WIN-9). With no tool calls the
  window is exactly the count-based algorithm of 000.

  @WIN-9 @WIN-4
  Scenario Outline: <format>: the spec's example — the kept middle is whole units
    Given a window with max_messages 6, preserve_first_n 1 and preserve_last_n 2
    And the <format> conversation: system, user, call(a), result(a), call(b), result(b), assistant, user
    When the conversation is trimmed
    Then the trimmed conversation is messages 1, 5-8
    And the evicted messages are messages 2-4

    Examples:
      | format    |
      | OpenAI    |
      | Anthropic |

  @WIN-9 @UNIT-3
  Scenario Outline: <format>: a tail that starts inside a unit grows to include the call
    Given a window with max_messages 5, preserve_first_n 1 and preserve_last_n 2
    And the <format> conversation: system, user, assistant, user, assistant, user, call(a b), result(a), result(b)
    When the conversation is trimmed
    Then the trimmed conversation is messages 1, 6-9
    And the evicted messages are messages 2-5

    Examples:
      | format    |
      | OpenAI    |

  @WIN-9 @UNIT-3
  Scenario: Anthropic: a tail of one that would hold only the tool result holds its call too
    Given a window with max_messages 4, preserve_first_n 1 and preserve_last_n 1
    And the Anthropic conversation: system, user, assistant, user, assistant, user, call(a b), result(a b)
    When the conversation is trimmed
    Then the trimmed conversation is messages 1, 6-8
    And the evicted messages are messages 2-5

  @WIN-9 @UNIT-3
  Scenario: a head that ends inside a unit grows to its end
    Given a window with max_messages 6, preserve_first_n 2 and preserve_last_n 1
    And the OpenAI conversation: user, call(a), result(a), user, assistant, user, assistant, user, assistant
    When the conversation is trimmed
    Then the trimmed conversation is messages 1-3, 7-9
    And the evicted messages are messages 4-6

  @WIN-9 @WIN-3 @WIN-6
  Scenario: grown head and tail that fill the cap are kept alone, with the warning
    Given a window with max_messages 5, preserve_first_n 2 and preserve_last_n 2
    And the OpenAI conversation: user, call(a b), result(a), result(b), user, assistant, call(c d), result(c), result(d)
    When the conversation is trimmed
    Then the trimmed conversation is messages 1-4, 7-9
    And the evicted messages are messages 5, 6
    And the warnings include "preserve_exceeds_max"

  @WIN-9 @WIN-4 @UNIT-3
  Scenario: a middle unit that does not fit is evicted whole, leaving room unused
    Given a window with max_messages 5, preserve_first_n 1 and preserve_last_n 1
    And the OpenAI conversation: system, user, call(a b c), result(a), result(b), result(c), user
    When the conversation is trimmed
    Then the trimmed conversation is messages 1, 7
    And the evicted messages are messages 2-6

  @UNIT-1 @WIN-4
  Scenario: without tool calls every message is its own unit and the count-based rule holds
    Given a window with max_messages 5, preserve_first_n 1 and preserve_last_n 2
    And the Anthropic conversation: system, user, assistant, user, assistant, user, assistant, user
    When the conversation is trimmed
    Then the trimmed conversation is messages 1, 5-8
    And the evicted messages are messages 2-4

  @UNIT-2
  Scenario Outline: <format>: the window refuses <structure>
    Given a window with max_messages 3, preserve_first_n 1 and preserve_last_n 1
    And the <format> conversation: <conversation>
    When the conversation is trimmed
    Then the request fails with "invalid_message"
    And the error message mentions "<code>"

    Examples:
      | format    | structure            | conversation                                    | code                 |
      | OpenAI    | an orphaned result   | system, user, result(x), assistant, user        | orphan_tool_result   |
      | Anthropic | an orphaned result   | system, user, result(x), assistant, user        | orphan_tool_result   |
      | OpenAI    | an unanswered call   | system, user, call(a b), result(a), user        | unanswered_tool_call |
      | Anthropic | an unanswered call   | system, user, call(a), user, assistant          | unanswered_tool_call |
