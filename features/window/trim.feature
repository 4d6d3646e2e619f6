@window
Feature: Trimming with the sliding window
  The window keeps a preserved head (the system prompt and initial context)
  and a preserved tail (recent turns), and evicts the oldest messages between
  them (000 requirement 3, 004 tasks 115 and 121). Messages are named by their
  1-based position in the conversation: message 1 is the system prompt.

  @WIN-1
  Scenario: under the cap nothing changes
    Given a window with max_messages 10, preserve_first_n 1 and preserve_last_n 3
    And a conversation of 6 messages
    When the conversation is trimmed
    Then the trimmed conversation is the input unchanged
    And nothing is evicted
    And there are no warnings

  @WIN-1
  Scenario: exactly at the cap nothing changes
    Given a window with max_messages 10, preserve_first_n 1 and preserve_last_n 3
    And a conversation of 10 messages
    When the conversation is trimmed
    Then the trimmed conversation is the input unchanged
    And nothing is evicted

  @WIN-1 @MET-2
  Scenario: an empty conversation trims to an empty conversation
    Given a window with the default config
    And a conversation of 0 messages
    When the conversation is trimmed
    Then the trimmed conversation is messages none
    And nothing is evicted
    And the metrics are total 0, preserved 0, evicted 0, estimated tokens 0

  @WIN-4 @WIN-5
  Scenario: one over the cap evicts the oldest middle message
    Given a window with max_messages 10, preserve_first_n 1 and preserve_last_n 3
    And a conversation of 11 messages
    When the conversation is trimmed
    Then the trimmed conversation is messages 1, 3-11
    And the evicted messages are message 2

  @WIN-2 @WIN-4 @WIN-5
  Scenario: the oldest middle messages are evicted, the most recent kept
    Given a window with max_messages 5, preserve_first_n 1 and preserve_last_n 2
    And a conversation of 8 messages
    When the conversation is trimmed
    Then the trimmed conversation is messages 1, 5, 6, 7, 8
    And the evicted messages are messages 2, 3, 4
    And there are no warnings

  @WIN-2 @WIN-4 @WIN-5 @WIN-6
  Scenario Outline: <n> messages, max_messages <max>, head <first>, tail <last>
    Given a window with max_messages <max>, preserve_first_n <first> and preserve_last_n <last>
    And a conversation of <n> messages
    When the conversation is trimmed
    Then the trimmed conversation is messages <kept>
    And the evicted messages are messages <evicted>

    Examples: the cap holds exactly
      | n  | max | first | last | kept             | evicted |
      | 12 | 10  | 1     | 3    | 1, 4-12          | 2-3     |
      | 30 | 10  | 2     | 2    | 1-2, 23-30       | 3-22    |
      | 30 | 10  | 0     | 4    | 21-30            | 1-20    |
      | 30 | 10  | 4     | 0    | 1-4, 25-30       | 5-24    |
      | 30 | 10  | 0     | 0    | 21-30            | 1-20    |
      | 3  | 2   | 0     | 1    | 2-3              | 1       |
      | 3  | 1   | 0     | 0    | 3                | 1-2     |
      | 25 | 20  | 5     | 5    | 1-5, 11-25       | 6-10    |
      | 9  | 8   | 3     | 4    | 1-3, 5-9         | 4       |

  @WIN-3 @WIN-6
  Scenario Outline: head <first> and tail <last> fill max_messages <max>: only they are kept
    Given a window with max_messages <max>, preserve_first_n <first> and preserve_last_n <last>
    And a conversation of <n> messages
    When the conversation is trimmed
    Then the trimmed conversation is messages <kept>
    And the evicted messages are messages <evicted>
    And the warnings include "preserve_exceeds_max"

    Examples:
      | n  | max | first | last | kept        | evicted |
      | 20 | 10  | 3     | 7    | 1-3, 14-20  | 4-13    |
      | 20 | 10  | 4     | 8    | 1-4, 13-20  | 5-12    |
      | 20 | 5   | 5     | 5    | 1-5, 16-20  | 6-15    |
      | 20 | 3   | 0     | 3    | 18-20       | 1-17    |
      | 20 | 1   | 1     | 0    | 1           | 2-20    |
      | 20 | 2   | 2     | 2    | 1-2, 19-20  | 3-18    |

  @WIN-2 @WIN-3 @WIN-5
  Scenario: fewer messages than head and tail: nothing is duplicated
    Given a window with max_messages 5, preserve_first_n 3 and preserve_last_n 4
    And a conversation of 7 messages
    When the conversation is trimmed
    Then the trimmed conversation is messages 1-7
    And nothing is evicted
    And the trimmed conversation has 7 messages
    And the warnings include "preserve_exceeds_max"

  @WIN-2 @WIN-3 @WIN-5
  Scenario Outline: <n> messages against head <first> and tail <last>: no message twice
    Given a window with max_messages <max>, preserve_first_n <first> and preserve_last_n <last>
    And a conversation of <n> messages
    When the conversation is trimmed
    Then the trimmed conversation is messages <kept>
    And the evicted messages are messages <evicted>

    Examples:
      | n | max | first | last | kept | evicted |
      | 6 | 5   | 3     | 4    | 1-6  | none    |
      | 6 | 4   | 6     | 6    | 1-6  | none    |
      | 6 | 2   | 10    | 1    | 1-6  | none    |
      | 6 | 2   | 1     | 10   | 1-6  | none    |
      | 8 | 5   | 3     | 4    | 1-3, 5-8 | 4    |

  @WIN-2
  Scenario: preserve_last_n 0 keeps no tail, not the whole conversation
    Given a window with max_messages 4, preserve_first_n 1 and preserve_last_n 0
    And a conversation of 10 messages
    When the conversation is trimmed
    Then the trimmed conversation is messages 1, 8-10
    And the evicted messages are messages 2-7
    And the trimmed conversation has 4 messages

  @WIN-2
  Scenario: preserve_first_n 0 keeps no head
    Given a window with max_messages 4, preserve_first_n 0 and preserve_last_n 2
    And a conversation of 10 messages
    When the conversation is trimmed
    Then the trimmed conversation is messages 7-10
    And the evicted messages are messages 1-6

  @WIN-5
  Scenario: identical messages are distinct messages
    Given a window with max_messages 3, preserve_first_n 1 and preserve_last_n 1
    And the conversation:
      """json
      [
        {"role": "system", "content": "you are terse"},
        {"role": "user", "content": "again"},
        {"role": "user", "content": "again"},
        {"role": "user", "content": "again"},
        {"role": "user", "content": "again"}
      ]
      """
    When the conversation is trimmed
    Then the trimmed conversation has 3 messages
    And the metrics are total 5, preserved 3, evicted 2, estimated tokens 6

  @WIN-7
  Scenario Outline: trimming a trimmed conversation changes nothing (max <max>, head <first>, tail <last>)
    Given a window with max_messages <max>, preserve_first_n <first> and preserve_last_n <last>
    And a conversation of 40 messages
    When the conversation is trimmed
    And the trimmed conversation is trimmed again
    Then the trimmed conversation is the input unchanged
    And nothing is evicted

    Examples:
      | max | first | last |
      | 10  | 1     | 3    |
      | 10  | 6     | 6    |
      | 10  | 0     | 0    |

  @WIN-8
  Scenario: a trim that leaves room raises no warning
    Given a window with max_messages 5, preserve_first_n 1 and preserve_last_n 2
    And a conversation of 30 messages
    When the conversation is trimmed
    Then the warnings do not include "preserve_exceeds_max"

  @MSG-2 @WIN-4
  Scenario: messages of both providers come back exactly as sent
    Given a window with max_messages 4, preserve_first_n 1 and preserve_last_n 2
    And the conversation:
      """json
      [
        {"role": "system", "content": "You are a coding agent.", "x-trace": {"span": 7}},
        {"role": "user", "content": [{"type": "text", "text": "Read the README 📖"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "Reading."}, {"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {"path": "README.md"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": [{"type": "text", "text": "# 项目"}]}]},
        {"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "ls", "arguments": "{\"dir\":\".\"}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "a.go\nb.go"},
        {"role": "assistant", "content": "Done.", "name": "agent-7"}
      ]
      """
    When the conversation is trimmed
    Then the trimmed conversation is messages 1, 5, 6, 7
    And the evicted messages are messages 2, 3, 4

  @WIN-8 @WIN-1
  Scenario: a conversation exactly at the cap raises no warning, even when head and tail fill the cap
    Given a window with max_messages 10, preserve_first_n 3 and preserve_last_n 8
    And a conversation of 10 messages
    When the conversation is trimmed
    Then the trimmed conversation is the input unchanged
    And there are no warnings

  @MSG-3 @WIN-4
  Scenario: the same trim twice gives the same result
    Given a window with max_messages 5, preserve_first_n 1 and preserve_last_n 2
    And a conversation of 12 messages
    When the conversation is trimmed
    Then trimming the same conversation again gives the same result
