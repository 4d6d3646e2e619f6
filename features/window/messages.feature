@window
Feature: The message model
  A message is a JSON object with a non-empty string role and any content
  (000 requirement 6: the { role: string; content: unknown } shape). Invalid
  messages are refused with an error naming the first bad index; valid ones
  come back exactly as sent.

  @MSG-1
  Scenario Outline: a message that is <what> is refused, naming its index
    Given a window with the default config
    And the conversation:
      """json
      [{"role": "system", "content": "ok"}, <message>]
      """
    When the conversation is trimmed
    Then the request fails with "invalid_message"
    And the error message mentions "messages[1]"

    Examples:
      | what                       | message                               |
      | missing its role           | {"content": "hi"}                     |
      | given an empty role        | {"role": "", "content": "hi"}         |
      | given a numeric role       | {"role": 7, "content": "hi"}          |
      | given a null role          | {"role": null, "content": "hi"}       |
      | a string                   | "hi"                                  |
      | an array                   | [{"role": "user"}]                    |
      | null                       | null                                  |
      | an unpaired high surrogate | {"role": "user", "content": "\ud800"} |
      | an unpaired low surrogate  | {"role": "user", "content": "x\udc00"} |
      | a lone surrogate in a block | {"role": "user", "content": [{"type": "text", "text": "\ud83d"}]} |

  @MSG-1
  Scenario: the estimate refuses invalid messages too
    Given the conversation:
      """json
      [{"role": "user", "content": "ok"}, {"role": "user", "content": "ok"}, {"content": "no role"}]
      """
    When the tokens of the conversation are estimated
    Then the request fails with "invalid_message"
    And the error message mentions "messages[2]"

  @MSG-1
  Scenario: a surrogate pair is a valid character
    Given a window with the default config
    And the conversation:
      """json
      [{"role": "user", "content": "\ud83d\ude00"}]
      """
    When the conversation is trimmed
    Then the trimmed conversation is the input unchanged

  @MSG-1 @MSG-2
  Scenario: any role and any members are accepted and kept
    Given a window with the default config
    And the conversation:
      """json
      [
        {"role": "developer", "content": "be brief"},
        {"role": "user", "content": 42, "metadata": {"ts": "2026-11-21T10:00:00Z", "tags": ["a", "b"]}},
        {"role": "assistant", "content": [{"type": "thinking", "thinking": "hmm", "signature": "abc"}], "cache_control": {"type": "ephemeral"}}
      ]
      """
    When the conversation is trimmed
    Then the trimmed conversation is the input unchanged
