@config
Feature: Conversation settings in the execution config file
  The shorthand `execution.max_conversation_messages` and the full
  `execution.conversation` block, in YAML and in JSON, resolve to one
  effective ConversationHistoryConfig (004 tasks 114, 119, 120).

  @CONF-1 @CONF-3
  Scenario: the full form of the plan's documentation, in YAML
    Given the config file in YAML:
      """
      execution:
        max_iterations: 50
        conversation:
          max_messages: 100
          summarize_on_trim: true
          preserve_first_n: 1
          preserve_last_n: 20
      """
    When the config is resolved
    Then the resolved config is:
      """json
      {"max_messages": 100, "summarize_on_trim": true, "preserve_first_n": 1, "preserve_last_n": 20}
      """
    And max_messages comes from the conversation
    And the config warnings are none

  @CONF-1 @CONF-3
  Scenario: the shorthand alone sets the cap; everything else is the default
    Given the config file in YAML:
      """
      execution:
        max_conversation_messages: 40
      """
    When the config is resolved
    Then the resolved config is:
      """json
      {"max_messages": 40, "summarize_on_trim": false, "preserve_first_n": 1, "preserve_last_n": 20}
      """
    And max_messages comes from the shorthand

  @CONF-1 @CONF-3
  Scenario: the shorthand in JSON
    Given the config file in JSON:
      """
      {"execution": {"max_conversation_messages": 30}}
      """
    When the config is resolved
    Then the resolved config is:
      """json
      {"max_messages": 30, "summarize_on_trim": false, "preserve_first_n": 1, "preserve_last_n": 20}
      """
    And max_messages comes from the shorthand

  @CONF-3
  Scenario: a block without max_messages keeps the shorthand's cap, not the default
    Given the config file in YAML:
      """
      execution:
        max_conversation_messages: 30
        conversation:
          summarize_on_trim: true
          preserve_last_n: 10
      """
    When the config is resolved
    Then the resolved config is:
      """json
      {"max_messages": 30, "summarize_on_trim": true, "preserve_first_n": 1, "preserve_last_n": 10}
      """
    And max_messages comes from the shorthand
    And the config warnings are none

  @CONF-3 @CONF-7
  Scenario: when both forms set the cap, the block wins with a warning
    Given the config file in JSON:
      """
      {"execution": {"max_conversation_messages": 30, "conversation": {"max_messages": 60}}}
      """
    When the config is resolved
    Then the resolved config is:
      """json
      {"max_messages": 60, "summarize_on_trim": false, "preserve_first_n": 1, "preserve_last_n": 20}
      """
    And max_messages comes from the conversation
    And the config warnings are config_shorthand_overridden

  @CONF-3
  Scenario: both forms agreeing raise no warning
    Given the config file in YAML:
      """
      execution:
        max_conversation_messages: 60
        conversation:
          max_messages: 60
      """
    When the config is resolved
    Then max_messages comes from the conversation
    And the config warnings are none

  @CONF-2 @CFG-1
  Scenario Outline: a config file without the new fields loads with every default (<case>)
    Given the config file in <format>:
      """
      <text>
      """
    When the config is resolved
    Then the resolved config is:
      """json
      {"max_messages": 100, "summarize_on_trim": false, "preserve_first_n": 1, "preserve_last_n": 20}
      """
    And max_messages comes from the default
    And the config warnings are none

    Examples:
      | case                         | format | text                                                     |
      | an empty YAML file           | YAML   |                                                          |
      | an empty JSON file           | JSON   |                                                          |
      | no execution section         | YAML   | provider: anthropic                                      |
      | an existing execution config | JSON   | {"execution": {"max_iterations": 50, "timeout": "30s"}}  |
      | execution is null            | YAML   | execution: ~                                             |
      | both settings null           | JSON   | {"execution": {"max_conversation_messages": null, "conversation": null}} |

  @CONF-5
  Scenario: the host's own members are not checked, whatever they hold
    Given the config file in YAML:
      """
      provider: {name: anthropic, model: claude}
      execution:
        max_iterations: -5
        unknown_host_setting: [1, 2, 3]
        max_conversation_messages: 25
      """
    When the config is resolved
    Then max_messages comes from the shorthand
    And the resolved config is:
      """json
      {"max_messages": 25, "summarize_on_trim": false, "preserve_first_n": 1, "preserve_last_n": 20}
      """

  @CONF-2 @CFG-5
  Scenario: max_conversation_messages 0 disables trimming
    Given the config file in YAML:
      """
      execution:
        max_conversation_messages: 0
      """
    When the config is resolved
    Then the resolved config is:
      """json
      {"max_messages": 0, "summarize_on_trim": false, "preserve_first_n": 1, "preserve_last_n": 20}
      """

  @CONF-7 @CFG-6
  Scenario: a shorthand cap that the default preserve settings fill is warned about
    Given the config file in YAML:
      """
      execution:
        max_conversation_messages: 10
      """
    When the config is resolved
    Then the config warnings are preserve_exceeds_max

  @CONF-4
  Scenario Outline: <case> fails with the field path
    Given the config file in <format>:
      """
      <text>
      """
    When the config is resolved
    Then the request fails with "invalid_config"
    And the error path is "<path>"

    Examples:
      | case                               | format | text                                                                   | path                                     |
      | a negative shorthand               | YAML   | execution: {max_conversation_messages: -1}                             | execution.max_conversation_messages      |
      | a fractional shorthand             | JSON   | {"execution": {"max_conversation_messages": 2.5}}                      | execution.max_conversation_messages      |
      | a quoted number                    | YAML   | execution: {max_conversation_messages: "100"}                          | execution.max_conversation_messages      |
      | a negative preserve_last_n         | YAML   | execution: {conversation: {preserve_last_n: -3}}                       | execution.conversation.preserve_last_n   |
      | a string where a boolean belongs   | JSON   | {"execution": {"conversation": {"summarize_on_trim": "true"}}}         | execution.conversation.summarize_on_trim |
      | an unknown member of the block     | YAML   | execution: {conversation: {preserve_last: 5}}                          | execution.conversation.preserve_last     |
      | a block that is not a mapping      | YAML   | execution: {conversation: 100}                                         | execution.conversation                   |
      | an execution that is not a mapping | JSON   | {"execution": [1, 2]}                                                  | execution                                |
      | a top level that is not a mapping  | YAML   | - execution                                                            |                                          |
      | a JSON syntax error (D-43)         | JSON   | {"execution": {"max_conversation_messages": 5}                         |                                          |

  @CONF-6
  Scenario Outline: YAML is read with the core schema (<case>)
    Given the config file in YAML:
      """
      <text>
      """
    When the config is resolved
    Then the resolved config is:
      """json
      <config>
      """

    Examples:
      | case                  | text                                                                                  | config                                                                                               |
      | 30.0 is the count 30  | execution: {max_conversation_messages: 30.0}                                          | {"max_messages": 30, "summarize_on_trim": false, "preserve_first_n": 1, "preserve_last_n": 20}      |
      | anchors and aliases   | defaults: {cap: &cap 25}\nexecution: {max_conversation_messages: *cap}                | {"max_messages": 25, "summarize_on_trim": false, "preserve_first_n": 1, "preserve_last_n": 20}      |
      | ~ is null             | execution: {max_conversation_messages: ~, conversation: {preserve_last_n: 5}}         | {"max_messages": 100, "summarize_on_trim": false, "preserve_first_n": 1, "preserve_last_n": 5}      |

  @CONF-6
  Scenario Outline: <case> is refused, never read one way silently
    Given the config file in <format>:
      """
      <text>
      """
    When the config is resolved
    Then the request fails with "invalid_config"

    Examples:
      | case                          | format | text                                                                       |
      | yes as a boolean (YAML 1.1)   | YAML   | execution: {conversation: {summarize_on_trim: yes}}                        |
      | a key given twice (YAML)      | YAML   | execution: {max_conversation_messages: 5, max_conversation_messages: 6}    |
      | a key given twice (JSON)      | JSON   | {"execution": {"conversation": {"max_messages": 1, "max_messages": 2}}}    |
      | two YAML documents            | YAML   | execution: {}\n---\nexecution: {}                                          |
      | infinity                      | YAML   | execution: {max_conversation_messages: .inf}                               |
      | YAML that does not parse      | YAML   | execution: [                                                               |
      | JSON that does not parse      | JSON   | {"execution":                                                              |
      | two JSON values               | JSON   | {} {}                                                                      |
      | a merge key                   | YAML   | base: &b {max_messages: 5}\nexecution: {conversation: {<<: *b}}            |

  @CONF-6
  Scenario Outline: YAML 1.2 as written is read (<case>)
    Given the config file in YAML:
      """
      <text>
      """
    When the config is resolved
    Then the resolved config is:
      """json
      <config>
      """

    Examples:
      | case                                      | text                                                                          | config                                                                                          |
      | a %YAML 1.2 directive                     | %YAML 1.2\n---\nexecution: {max_conversation_messages: 9}                      | {"max_messages": 9, "summarize_on_trim": false, "preserve_first_n": 1, "preserve_last_n": 20}  |
      | keys that are not strings (D-48)          | ~: x\ntrue: 1\n1.5: 1\n007: 1\nexecution: {max_conversation_messages: 8}       | {"max_messages": 8, "summarize_on_trim": false, "preserve_first_n": 1, "preserve_last_n": 20}  |
      | the non-specific tag on a host's member   | port: ! 8080\nexecution: {max_conversation_messages: 7}                        | {"max_messages": 7, "summarize_on_trim": false, "preserve_first_n": 1, "preserve_last_n": 20}  |

  @CONF-6 @CONF-4
  Scenario Outline: <case> fails naming its path
    Given the config file in YAML:
      """
      <text>
      """
    When the config is resolved
    Then the request fails with "invalid_config"
    And the error path is "<path>"

    Examples:
      | case                                                  | text                                                         | path                                |
      | the non-specific tag makes ! 5 the string "5"         | execution: {max_conversation_messages: ! 5}                  | execution.max_conversation_messages |
      | the non-specific tag after an anchor                  | execution: {max_conversation_messages: &n ! 5}               | execution.max_conversation_messages |
      | !!null on a text that is no null (D-48)               | x: !!null x\nexecution: {}                                   | x                                   |
      | an alias inside the node it names, at the alias (D-48) | a: &a [*a]                                                   | a[0]                                |
      | an alias to no anchor is not YAML (D-48)              | a: *b                                                        |                                     |

  @CONF-4
  Scenario: the error names the path in its message too
    Given the config file in YAML:
      """
      execution:
        conversation:
          preserve_first_n: -1
      """
    When the config is resolved
    Then the request fails with "invalid_config"
    And the error message mentions "execution.conversation.preserve_first_n"

  @PROTO-2 @CONF-1
  Scenario: a config without its text is invalid_params, not an empty file (D-48)
    When the request "config.resolve" is sent with params:
      """json
      {"config": {"format": "json"}}
      """
    Then the response is an error of kind "invalid_params"

  @PROTO-2 @CONF-1
  Scenario: an unknown format is invalid_params
    When the request "config.resolve" is sent with params:
      """json
      {"config": {"format": "toml", "text": "[execution]"}}
      """
    Then the response is an error of kind "invalid_params"
