@loop
Feature: The provider tool-call loop, end to end
  Each executor iteration appends a user prompt; the provider calls the
  model, appends its tool calls and their results, and calls again; the
  window trims before every call (004 tasks 113, 116, 117, 119, 123 and the
  success criteria). The harness scripts the model; every request the loop
  would send is checked against the provider's own rules.

  Background:
    Given the config file in YAML:
      """
      execution:
        max_iterations: 50
        max_conversation_messages: 30
      """

  @LOOP-6 @LOOP-7 @LOOP-1
  Scenario Outline: a task with 50+ tool calls completes under max_messages 30 without context errors (<provider>, <style>)
    Given <article> <provider> run of 4 iterations, each with 3 tool turns of 5 parallel calls <style>
    When the run is executed
    Then the run made at least 50 tool calls
    And every request is valid for the provider
    And every request holds at most 30 messages
    And every handed-on state holds at most 30 messages
    And the first message of every request is the first message of the run

    Examples:
      | article | provider  | style                |
      | an      | OpenAI    |                      |
      | an      | Anthropic |                      |
      | an      | OpenAI    | appended one by one  |
      | an      | Anthropic | appended one by one  |

  @LOOP-1
  Scenario Outline: one request per model call (<provider>)
    Given <article> <provider> run of 2 iterations, each with 3 tool turns of 2 parallel calls
    When the run is executed
    Then 8 model calls were made

    Examples:
      | article | provider  |
      | an      | OpenAI    |
      | an      | Anthropic |

  @LOOP-1 @LOOP-7
  Scenario Outline: the window trims before every call, not once per iteration (<provider>)
    Given the config file in YAML:
      """
      execution:
        conversation:
          max_messages: 12
          preserve_first_n: 1
          preserve_last_n: 4
      """
    And <article> <provider> run of 1 iteration, each with 12 tool turns of 2 parallel calls
    When the run is executed
    Then every request holds at most 12 messages
    And every request is valid for the provider

    Examples:
      | article | provider  |
      | an      | OpenAI    |
      | an      | Anthropic |

  @LOOP-3
  Scenario Outline: the state handed between iterations is trimmed (<provider>)
    Given <article> <provider> run of 5 iterations, each with 4 tool turns of 3 parallel calls
    When the run is executed
    Then every handed-on state holds at most 30 messages
    And every iteration starts from the state the one before handed on
    And the metrics of every iteration count its handed-on state

    Examples:
      | article | provider  |
      | an      | OpenAI    |
      | an      | Anthropic |

  @LOOP-1 @CONF-1
  Scenario: config values flow from the config file through to the window
    Given the config file in YAML:
      """
      execution:
        max_conversation_messages: 16
        conversation:
          preserve_last_n: 6
          summarize_on_trim: false
      """
    And an OpenAI run of 3 iterations, each with 4 tool turns of 2 parallel calls
    When the run is executed
    Then the run's effective config is:
      """json
      {"max_messages": 16, "summarize_on_trim": false, "preserve_first_n": 1, "preserve_last_n": 6}
      """
    And every request holds at most 16 messages
    And every request is valid for the provider

  @LOOP-4 @LOOP-5 @LOOP-3 @MET-1
  Scenario: metrics and events of each iteration, worked out by hand
    # Contents are 4 or 8 characters, tool calls have none (EST-5): iteration
    # 1 hands on 4 + 8 + 8 + 8 = 28 characters (7 tokens). Iteration 1:
    # requests of 2, 4 and 6 messages fit the cap of 6; after the final reply
    # the 7 messages are trimmed: head [sys], tail [call b, result b, done]
    # (grown to the unit), k = 2 keeps [call a, result a], the prompt is evicted.
    # Iteration 2: 6 + prompt = 7 messages; head [sys], tail [done, prompt],
    # k = 3 keeps [call b, result b] and evicts [call a, result a].
    Given the config file in YAML:
      """
      execution:
        max_conversation_messages: 6
        conversation:
          preserve_last_n: 2
      """
    And the OpenAI run:
      """json
      {
        "initial": [{"role": "system", "content": "SYS1"}],
        "iterations": [
          {"prompt": {"role": "user", "content": "task one"}, "turns": [
            {"response": {"role": "assistant", "content": null, "tool_calls": [{"id": "a", "type": "function", "function": {"name": "read", "arguments": "{}"}}]},
             "results": [{"role": "tool", "tool_call_id": "a", "content": "aaaaaaaa"}]},
            {"response": {"role": "assistant", "content": null, "tool_calls": [{"id": "b", "type": "function", "function": {"name": "read", "arguments": "{}"}}]},
             "results": [{"role": "tool", "tool_call_id": "b", "content": "bbbbbbbb"}]},
            {"response": {"role": "assistant", "content": "all done"}, "results": []}
          ]},
          {"prompt": {"role": "user", "content": "task two"}, "turns": [
            {"response": {"role": "assistant", "content": "done two"}, "results": []}
          ]}
        ]
      }
      """
    When the run is executed
    Then 4 model calls were made
    And request 1 holds 2 messages
    And request 3 holds 6 messages
    And request 4 holds 5 messages
    And the events of iteration 1 are:
      | code                           | message                                                     |
      | conversation_trimmed           | Trimmed conversation: 1 messages removed, 6 kept (~7 tokens) |
      | conversation_metrics           | Conversation: 6 messages (~7 tokens)                        |
      | conversation_approaching_limit | Conversation approaching limit (6/6 messages)               |
    And the metrics of iteration 1 are 6 messages and 7 estimated tokens
    And the events of iteration 2 are:
      | code                           | message                                                     |
      | conversation_trimmed           | Trimmed conversation: 2 messages removed, 5 kept (~7 tokens) |
      | conversation_metrics           | Conversation: 6 messages (~9 tokens)                        |
      | conversation_approaching_limit | Conversation approaching limit (6/6 messages)               |
    And the metrics of iteration 2 are 6 messages and 9 estimated tokens
    And every iteration starts from the state the one before handed on

  # An Anthropic turn of one call is 2 messages, so an iteration of T turns
  # holds the prompt, 2T messages and the final reply. Estimates: the prompt
  # "Task 1: continue the refactoring." is 33 characters, the reply
  # "Task 1 is done." 15; turn t's response serializes to
  # [{"text":"Reading 1 files.","type":"text"},{"id":"call_1_t_1","input":{"path":"src/call_1_t_1.go"},"name":"read_file","type":"tool_use"}]
  # and its result to
  # [{"content":"package call_1_t_1","tool_use_id":"call_1_t_1","type":"tool_result"}]
  # (members in the order sent), 137 + 82 characters.
  @LOOP-5 @LOOP-4
  Scenario: exactly 80% of the cap does not warn (8 of 10)
    Given the config file in YAML:
      """
      execution:
        max_conversation_messages: 10
      """
    And an Anthropic run of 1 iteration, each with 3 tool turns of 1 parallel call
    When the run is executed
    Then the metrics of iteration 1 are 8 messages and 177 estimated tokens
    And the events of iteration 1 are:
      | code                 | message                                |
      | conversation_metrics | Conversation: 8 messages (~177 tokens) |

  @LOOP-5 @LOOP-4
  Scenario: above 80% of the cap warns (10 of 12)
    Given the config file in YAML:
      """
      execution:
        max_conversation_messages: 12
      """
    And an Anthropic run of 1 iteration, each with 4 tool turns of 1 parallel call
    When the run is executed
    Then the metrics of iteration 1 are 10 messages and 231 estimated tokens
    And the events of iteration 1 are:
      | code                           | message                                         |
      | conversation_metrics           | Conversation: 10 messages (~231 tokens)         |
      | conversation_approaching_limit | Conversation approaching limit (10/12 messages) |

  @LOOP-5
  Scenario: trimming off never warns about the cap
    Given the config file in YAML:
      """
      execution:
        max_conversation_messages: 0
      """
    And an OpenAI run of 2 iterations, each with 5 tool turns of 5 parallel calls
    When the run is executed
    Then the events of iteration 2 are:
      | code                 | message                                 |
      | conversation_metrics | Conversation: 65 messages (~264 tokens) |

  @LOOP-2 @LOOP-6
  Scenario Outline: preserve_first_n 0 is raised to 1 in the loop, so the first message stays (<provider>)
    Given the config file in YAML:
      """
      execution:
        conversation:
          max_messages: 10
          preserve_first_n: 0
          preserve_last_n: 4
      """
    And <article> <provider> run of 2 iterations, each with 3 tool turns of 2 parallel calls
    When the run is executed
    Then the first message of every request is the first message of the run
    And every request is valid for the provider
    And the events of iteration 1 start with "preserve_first_raised"

    Examples:
      | article | provider  |
      | an      | OpenAI    |
      | an      | Anthropic |

  @LOOP-1 @SUM-2 @SUM-7
  Scenario: summaries in the loop: the summary stands after the first message, a failure never leaks into a request
    Given the config file in YAML:
      """
      execution:
        conversation:
          max_messages: 12
          summarize_on_trim: true
          preserve_first_n: 1
          preserve_last_n: 4
      """
    And the summarizer of the run fails with "upstream 529 overloaded"
    And then replies "Read the sources of the refactoring."
    And an OpenAI run of 3 iterations, each with 3 tool turns of 3 parallel calls
    When the run is executed
    Then every request is valid for the provider
    And every request holds at most 12 messages
    And no request contains the text "upstream 529"
    And some request holds the summary "Read the sources of the refactoring." right after the first message

  @LOOP-3 @CFG-5
  Scenario Outline: without a cap the array grows without bound, as 004's audit found (<provider>, <style>)
    # Per iteration of one turn of 5 calls: OpenAI appends the prompt, the
    # call, 5 results and the reply (8 messages; 1 system prompt first);
    # Anthropic grouped appends prompt, call, one result message and reply
    # (4); Anthropic one call per message appends prompt, 5 calls and 5
    # results, and the reply (12). After 20 iterations: 1 + 20·8 = 161,
    # 20·4 = 80 and 20·12 = 240 messages.
    Given the config file in YAML:
      """
      execution:
        max_conversation_messages: 0
      """
    And <article> <provider> run of 20 iterations, each with 1 tool turn of 5 parallel calls <style>
    When the run is executed
    Then iteration 20 hands on <messages> messages
    And every request is valid for the provider

    Examples:
      | article | provider  | style               | messages |
      | an      | OpenAI    |                     | 161      |
      | an      | Anthropic |                     | 80       |
      | an      | Anthropic | appended one by one | 240      |

  @LOOP-3 @LOOP-7
  Scenario Outline: the same 20 iterations under the plan's max_messages 30 stay within it (<provider>, <style>)
    Given <article> <provider> run of 20 iterations, each with 1 tool turn of 5 parallel calls <style>
    When the run is executed
    Then every handed-on state holds at most 30 messages
    And every request holds at most 30 messages
    And every request is valid for the provider

    Examples:
      | article | provider  | style               |
      | an      | OpenAI    |                     |
      | an      | Anthropic |                     |
      | an      | Anthropic | appended one by one |

  @LOOP-1 @SUM-2 @SUM-7
  Scenario: summaries in an Anthropic loop keep every request valid
    Given the config file in YAML:
      """
      execution:
        conversation:
          max_messages: 12
          summarize_on_trim: true
          preserve_first_n: 1
          preserve_last_n: 4
      """
    And the summarizer of the run fails with "upstream 529 overloaded"
    And then replies "Read the sources of the refactoring."
    And an Anthropic run of 3 iterations, each with 3 tool turns of 3 parallel calls
    When the run is executed
    Then every request is valid for the provider
    And every request holds at most 12 messages
    And no request contains the text "upstream 529"
    And some request holds the summary "Read the sources of the refactoring." right after the first message

  @LOOP-4 @WIN-3
  Scenario: a trim that evicts nothing still passes its warnings on
    # max 3, head 1, tail 4. The final trim of the iteration sees 4 messages
    # (prompt, call, result, reply): head [prompt], tail the other 3, no
    # middle, so nothing is evicted, all 4 are kept, and the trim warns
    # preserve_exceeds_max (WIN-3). Estimate: 33 + 137 + 82 + 15 = 267
    # characters, 67 tokens (see the Anthropic turn above); 4 of 3 is above 80%.
    Given the config file in YAML:
      """
      execution:
        conversation:
          max_messages: 3
          preserve_first_n: 1
          preserve_last_n: 4
      """
    And an Anthropic run of 1 iteration, each with 1 tool turn of 1 parallel call
    When the run is executed
    Then the events of iteration 1 start with "preserve_exceeds_max"
    And the metrics of iteration 1 are 4 messages and 67 estimated tokens

  # D-43: what the documents leave open about loop.run's result.
  @LOOP-1
  Scenario: requests are numbered by iteration from 0 on the wire (D-43)
    Given the config file in YAML:
      """
      execution:
        conversation:
          max_messages: 10
      """
    And an OpenAI run of 2 iterations, each with 1 tool turn of 1 parallel call
    When the run is executed
    Then request 1 is numbered iteration 0 on the wire
    And request last is numbered iteration 1 on the wire

  @LOOP-2
  Scenario: the run's config is the resolved one; preserve_first_n raised to 1 shows only in the event (D-43)
    Given the config file in YAML:
      """
      execution:
        conversation:
          max_messages: 10
          preserve_first_n: 0
          preserve_last_n: 4
      """
    And an OpenAI run of 1 iteration, each with 1 tool turn of 1 parallel call
    When the run is executed
    Then the run's effective config is:
      """json
      {"max_messages": 10, "summarize_on_trim": false, "preserve_first_n": 0, "preserve_last_n": 4}
      """
    And the events of iteration 1 start with "preserve_first_raised"
