@history
Feature: Pruning orphaned user prompts
  Of consecutive user prompts with no assistant reply between them, only the
  last reaches the model (001). Only assistant messages end such a run; tool
  results, system messages and other roles do not.

  @PRUNE-1
  Scenario Outline: 001 case: <case>
    Given the OpenAI conversation: <conversation>
    When the history is pruned
    Then the pruned history is messages <kept>
    And the removed positions are messages <removed>

    Examples:
      | case                                   | conversation                                  | kept          | removed |
      | two prompts, then a reply              | user, user, assistant                         | 2, 3          | 1       |
      | three prompts, then a reply            | user, user, user, assistant                   | 3, 4          | 1, 2    |
      | a run at the end                       | user, assistant, user, user                   | 1, 2, 4       | 3       |
      | a run after a tool call                | user, call(a), result(a), user, user          | 1-3, 5        | 4       |
      | a single prompt                        | user                                          | 1             | none    |
      | a reply then a prompt                  | assistant, user                               | 1, 2          | none    |
      | a run at the very start                | user, user, user, assistant, user             | 3-5           | 1, 2    |
      | separate runs                          | user, user, assistant, user, user, assistant  | 2, 3, 5, 6    | 1, 4    |

  @PRUNE-1
  Scenario: an empty history prunes to an empty history
    Given a conversation of 0 messages
    When the history is pruned
    Then the pruned history is messages none
    And the removed positions are messages none

  @PRUNE-1 @PRUNE-2
  Scenario: 001 case 4 in the Anthropic format: the tool result message is not a prompt
    Given the Anthropic conversation: user, call(a), result(a), user, user
    When the history is pruned
    Then the pruned history is messages 1-3, 5

  @PRUNE-2 @CLS-1
  Scenario: an Anthropic tool result right before a prompt is kept
    Given the Anthropic conversation: user, call(a), result(a), user, assistant
    When the history is pruned
    Then the pruned history is the input unchanged

  @PRUNE-2
  Scenario Outline: a <what> inside a run does not end it
    Given the OpenAI conversation: <conversation>
    When the history is pruned
    Then the pruned history is messages <kept>

    Examples:
      | what           | conversation                       | kept     |
      | system message | user, system, user, assistant      | 2-4      |
      | tool result    | user, result(a), user, assistant   | 2-4      |

  @PRUNE-3
  Scenario: pruning removes prompts only and keeps everything else in order
    Given the OpenAI conversation: system, user, system, user, call(a), result(a), assistant, user, user
    When the history is pruned
    Then the pruned history is messages 1, 3-7, 9
    And the removed positions are messages 2, 8

  @PRUNE-3 @MSG-2
  Scenario: pruning returns kept messages exactly as sent
    Given the conversation:
      """json
      [
        {"role": "user", "content": "first", "x-id": 1},
        {"role": "user", "content": [{"type": "text", "text": "second 🚀"}], "x-id": 2},
        {"role": "assistant", "content": "ok", "x-meta": {"model": "m"}}
      ]
      """
    When the history is pruned
    Then the pruned history is messages 2, 3

  @PRUNE-4
  Scenario: pruning a pruned history removes nothing
    Given the OpenAI conversation: user, user, assistant, user, user, user
    When the history is pruned
    And the pruned history is pruned again
    Then the pruned history is the input unchanged
