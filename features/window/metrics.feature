@window
Feature: Metrics after trimming
  Every trim reports ConversationMetrics (000 requirement 5, 004 task 121):
  how many messages came in, how many were kept and evicted, and the
  estimated tokens of what is sent.

  @MET-1
  Scenario: metrics after trimming count what is kept and sent
    Given a window with max_messages 3, preserve_first_n 1 and preserve_last_n 1
    And the conversation:
      """json
      [
        {"role": "system", "content": "abcd"},
        {"role": "user", "content": "evicted one, long enough to be counted if it were sent"},
        {"role": "assistant", "content": "abcdefgh"},
        {"role": "user", "content": "abcdefghijkl"}
      ]
      """
    When the conversation is trimmed
    Then the trimmed conversation is messages 1, 3, 4
    And the metrics are total 4, preserved 3, evicted 1, estimated tokens 6

  @MET-1 @MET-2
  Scenario: metrics when nothing is trimmed
    Given a window with the default config
    And the conversation:
      """json
      [{"role": "system", "content": "abcd"}, {"role": "user", "content": "e"}]
      """
    When the conversation is trimmed
    Then the metrics are total 2, preserved 2, evicted 0, estimated tokens 2

  @MET-1
  Scenario Outline: metrics of <n> messages with max_messages <max>
    Given a window with max_messages <max>, preserve_first_n 1 and preserve_last_n 2
    And a conversation of <n> messages
    When the conversation is trimmed
    Then the metrics are total <n>, preserved <kept>, evicted <evicted>, estimated tokens <tokens>

    Examples:
      | n  | max | kept | evicted | tokens |
      | 5  | 5   | 5    | 0       | 3      |
      | 12 | 5   | 5    | 7       | 4      |
      | 40 | 10  | 10   | 30      | 8      |
