Feature: Any trimmer
  Whatever its algorithm — by messages or by tokens, from the end, with or
  without the system prompt — a history trimmer must keep a few invariants,
  or the provider rejects the request or the model loses its instructions.
  An implementation declares its trimmers in the handshake with the
  guarantees each claims; every scenario here gives one conversation to
  every trimmer that claims the scenario's guarantee, and checks it on
  every output. A trimmer is checked only on what it claims.

  @trimmer @ANY-10
  Scenario: the declaration names each trimmer's bound and guarantees
    Then every declared trimmer names its bound, a counter for a token bound, and known guarantees

  @trimmer @ANY-10 @PROTO-2
  Scenario: a trimmer that was not declared is invalid_params
    When the request "trimmer.trim" is sent with params:
      """json
      {"trimmer": "no-such-trimmer-declared", "messages": [], "limit": 3}
      """
    Then the request fails with "invalid_params"
    And the error message mentions "trimmer"
    And the implementation still answers

  @trimmer/subsequence @ANY-1
  Scenario: what is kept is a subsequence of the conversation
    Given the OpenAI conversation: system, user, assistant, user, call(a), result(a), assistant, user
    When every trimmer that claims "subsequence" trims it to 3
    Then every output is a subsequence of the conversation

  @trimmer/subsequence @ANY-1
  Scenario: nothing is duplicated when everything fits
    Given the OpenAI conversation: system, user, assistant
    When every trimmer that claims "subsequence" trims it to 1000
    Then every output is a subsequence of the conversation

  @trimmer/units @ANY-2
  Scenario: OpenAI: a cut never separates a call from its results
    Given the OpenAI conversation: system, user, call(a b), result(a), result(b), assistant, user
    When every trimmer that claims "units" trims it to 4
    Then every output keeps tool-call units whole

  @trimmer/units @ANY-2
  Scenario: Anthropic: a cut never separates a tool_use from its tool_result
    Given the Anthropic conversation: user, call(a b), result(a b), call(c), result(c)
    When every trimmer that claims "units" trims it to 3
    Then every output keeps tool-call units whole

  @trimmer/system @ANY-3
  Scenario: the system prompt survives a tight limit
    Given the OpenAI conversation: system, user, assistant, user, assistant, user
    When every trimmer that claims "system" trims it to 2
    Then every output starts with message 1

  @trimmer/system @ANY-3
  Scenario: every leading system message is kept, not only the first
    Given the OpenAI conversation: system, system, user, assistant, user
    When every trimmer that claims "system" trims it to 1
    Then every output starts with messages 1-2

  @trimmer/last_prompt @ANY-4
  Scenario: the latest user prompt survives a tool exchange after it
    Given the OpenAI conversation: system, user, assistant, user, call(a), result(a)
    When every trimmer that claims "last_prompt" trims it to 3
    Then every output holds message 4

  @trimmer/last_unit @ANY-5
  Scenario: the last unit is kept whole even when it alone is over the limit
    Given the OpenAI conversation: system, user, call(a b), result(a), result(b)
    When every trimmer that claims "last_unit" trims it to 2
    Then every output ends with messages 3-5

  @trimmer/bound @ANY-6
  Scenario: a message bound holds
    Given the OpenAI conversation: system, user, assistant, user, assistant, user
    When every trimmer that claims "bound" trims it to 4
    Then every output is within the limit, or exactly its floor
    And every output of a message bound has at most 4 messages

  @trimmer/bound @ANY-6
  Scenario: at limit 0 only the floor is left
    Given the OpenAI conversation: system, user, assistant
    When every trimmer that claims "bound" trims it to 0
    Then every output is within the limit, or exactly its floor

  @trimmer/fits @ANY-7
  Scenario: a conversation within the limit comes back unchanged
    Given the OpenAI conversation: system, user, call(a), result(a), assistant
    When every trimmer that claims "fits" trims it to 1000
    Then every output is the conversation unchanged

  @trimmer/idempotent @ANY-8
  Scenario: trimming a trimmed conversation again changes nothing
    Given the OpenAI conversation: system, user, assistant, user, call(a), result(a), assistant, user
    When every trimmer that claims "idempotent" trims it to 3
    Then trimming every output again changes nothing

  @trimmer/total @ANY-9
  Scenario: the empty conversation at limit 0 is answered
    Given an empty conversation
    When every trimmer that claims "total" trims it to 0
    Then no trimmer failed
    And every output is empty

  @trimmer/total @ANY-9
  Scenario: limit 0 is answered
    Given the Anthropic conversation: user, call(a), result(a), assistant
    When every trimmer that claims "total" trims it to 0
    Then no trimmer failed

  @trimmer/head @ANY-11
  Scenario: the declared head survives a tight limit
    Given the OpenAI conversation: user, assistant, user, assistant, user, assistant
    When every trimmer that claims "head" trims it to 1
    Then every output starts with the declared head
    And every output is a subsequence of the conversation

  @trimmer/start @ANY-12
  Scenario: a trimmed history starts on a user prompt after the system prompt
    Given the OpenAI conversation: system, user, assistant, call(a), result(a), assistant, user
    When every trimmer that claims "start" trims it to 3
    Then every output starts on a user prompt after what it always keeps

  @trimmer/start @ANY-12 @ANY-7
  Scenario: the start rule applies when nothing is trimmed
    Given the OpenAI conversation: system, assistant, user, assistant
    When every trimmer that claims "start" trims it to 1000
    Then every output starts on a user prompt after what it always keeps
    And every output is the conversation unchanged

  @trimmer/counter @ANY-13
  Scenario: a native counter never counts a tool call negative
    Given the OpenAI conversation: system, user, call(a b), result(a), result(b), assistant, user
    When every trimmer that claims "counter" trims it to 1000
    Then every native counter is sane on the conversation

  @trimmer/fallback @ANY-14
  Scenario: the last message is kept when nothing else fits
    Given the OpenAI conversation: system, user, assistant, user
    When every trimmer that claims "fallback" trims it to 0
    Then every output is what the trimmer always keeps and the last message
    And every output is a subsequence of the conversation
