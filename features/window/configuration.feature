@window
Feature: Window configuration
  A window is created from a ConversationHistoryConfig. Omitted members take
  their defaults (000 requirement 1, 004 task 114); bad values are refused with
  an error that names the member, never clamped or ignored.

  @CFG-1
  Scenario: an empty config takes every default
    When a window is created with config:
      """json
      {}
      """
    Then the effective config is:
      """json
      {"max_messages": 100, "summarize_on_trim": false, "preserve_first_n": 1, "preserve_last_n": 20}
      """
    And there are no warnings

  @CFG-1
  Scenario: no config at all takes every default
    When a window is created without a config
    Then the effective config is:
      """json
      {"max_messages": 100, "summarize_on_trim": false, "preserve_first_n": 1, "preserve_last_n": 20}
      """

  @CFG-1
  Scenario Outline: only the omitted member <omitted> takes its default
    When a window is created with config:
      """json
      <config>
      """
    Then the effective config is:
      """json
      <effective>
      """

    Examples:
      | omitted           | config                                                                              | effective                                                                                   |
      | max_messages      | {"summarize_on_trim": true, "preserve_first_n": 2, "preserve_last_n": 3}            | {"max_messages": 100, "summarize_on_trim": true, "preserve_first_n": 2, "preserve_last_n": 3} |
      | summarize_on_trim | {"max_messages": 50, "preserve_first_n": 2, "preserve_last_n": 3}                   | {"max_messages": 50, "summarize_on_trim": false, "preserve_first_n": 2, "preserve_last_n": 3} |
      | preserve_first_n  | {"max_messages": 50, "summarize_on_trim": true, "preserve_last_n": 3}               | {"max_messages": 50, "summarize_on_trim": true, "preserve_first_n": 1, "preserve_last_n": 3}  |
      | preserve_last_n   | {"max_messages": 50, "summarize_on_trim": true, "preserve_first_n": 2}              | {"max_messages": 50, "summarize_on_trim": true, "preserve_first_n": 2, "preserve_last_n": 20} |

  @CFG-1 @WIN-4
  Scenario: the defaults are what the trim uses
    Given a window with the default config
    And a conversation of 150 messages
    When the conversation is trimmed
    Then the trimmed conversation is messages 1, 52-150
    And the evicted messages are messages 2-51
    And the trimmed conversation has 100 messages

  @CFG-2
  Scenario: null members take their defaults
    When a window is created with config:
      """json
      {"max_messages": null, "summarize_on_trim": null, "preserve_first_n": null, "preserve_last_n": null}
      """
    Then the effective config is:
      """json
      {"max_messages": 100, "summarize_on_trim": false, "preserve_first_n": 1, "preserve_last_n": 20}
      """

  @CFG-3
  Scenario Outline: <member> <value> is a count
    When a window is created with config:
      """json
      {"<member>": <value>}
      """
    Then the effective config is:
      """json
      <effective>
      """

    Examples:
      | member          | value | effective                                                                                 |
      | max_messages    | 3.0   | {"max_messages": 3, "summarize_on_trim": false, "preserve_first_n": 1, "preserve_last_n": 20} |
      | max_messages    | 1e2   | {"max_messages": 100, "summarize_on_trim": false, "preserve_first_n": 1, "preserve_last_n": 20} |
      | preserve_last_n | 0     | {"max_messages": 100, "summarize_on_trim": false, "preserve_first_n": 1, "preserve_last_n": 0} |

  @CFG-3
  Scenario Outline: <member> given <what> is refused
    When a window is created with config:
      """json
      {"<member>": <value>}
      """
    Then the request fails with "invalid_config"
    And the error message mentions "<member>"

    Examples:
      | member            | what                 | value            |
      | max_messages      | a negative number    | -1               |
      | preserve_first_n  | a negative number    | -1               |
      | preserve_last_n   | a negative number    | -20              |
      | max_messages      | a fraction           | 2.5              |
      | preserve_last_n   | a small fraction     | 0.1              |
      | max_messages      | a numeric string     | "100"            |
      | preserve_first_n  | a boolean            | true             |
      | preserve_last_n   | an array             | [20]             |
      | max_messages      | an object            | {"value": 100}   |
      | max_messages      | 2^53                 | 9007199254740992 |
      | summarize_on_trim | a string             | "yes"            |
      | summarize_on_trim | a number             | 1                |

  @CFG-4
  Scenario: an unknown member is refused, naming it
    When a window is created with config:
      """json
      {"max_messages": 30, "preserve_last": 5}
      """
    Then the request fails with "invalid_config"
    And the error message mentions "preserve_last"

  @CFG-4
  Scenario Outline: a config that is <what> is refused
    When a window is created with config:
      """json
      <config>
      """
    Then the request fails with "invalid_config"

    Examples:
      | what       | config     |
      | an array   | [100]      |
      | a number   | 100        |
      | a string   | "default"  |
      | a boolean  | true       |

  @CFG-5 @WIN-1
  Scenario: max_messages 0 disables trimming
    Given a window with max_messages 0, preserve_first_n 1 and preserve_last_n 20
    And a conversation of 500 messages
    When the conversation is trimmed
    Then the trimmed conversation is the input unchanged
    And nothing is evicted
    And there are no warnings

  @CFG-5 @CFG-6
  Scenario: max_messages 0 raises no preserve warning
    When a window is created with config:
      """json
      {"max_messages": 0}
      """
    Then there are no warnings

  @CFG-6
  Scenario Outline: preserve settings <first> + <last> against max_messages <max> <verdict>
    When a window is created with config:
      """json
      {"max_messages": <max>, "preserve_first_n": <first>, "preserve_last_n": <last>}
      """
    Then the warnings <check> "preserve_exceeds_max"

    Examples:
      | max | first | last | verdict         | check          |
      | 10  | 3     | 6    | leave room      | do not include |
      | 10  | 3     | 7    | fill the cap    | include        |
      | 10  | 3     | 8    | exceed the cap  | include        |
      | 10  | 0     | 10   | fill the cap    | include        |
      | 1   | 1     | 0    | fill the cap    | include        |
      | 1   | 0     | 0    | leave room      | do not include |
