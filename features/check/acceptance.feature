Feature: What a provider accepts in a request
  Recorded request bodies are judged as OpenAI or Anthropic would judge
  them (SPEC.md section 8e), by `conform check`, without an adapter. These
  scenarios check conform check's reading of the clauses; they talk to no
  implementation (D-56). Each request is one line, numbered from 1.

  @ACC-1 @UNIT-2
  Scenario: OpenAI: a trimmed history that starts with a tool result is refused
    Given the recorded requests:
      """
      {"model":"gpt-4o","messages":[{"role":"tool","tool_call_id":"call_1","content":"42 files"},{"role":"assistant","content":"There are 42 files."},{"role":"user","content":"And tests?"}]}
      """
    When conform check reads them
    Then conform check finds exactly:
      | request | clause | at          |
      | 1       | ACC-1  | messages[0] |

  @ACC-1
  Scenario: Anthropic: a trimmed history that starts with a tool result is refused
    Given the recorded requests:
      """
      {"model":"claude-sonnet-4-5","max_tokens":512,"system":"Be brief.","messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"42 files"}]},{"role":"assistant","content":"There are 42 files."},{"role":"user","content":"And tests?"}]}
      """
    When conform check reads them
    Then conform check finds exactly:
      | request | clause | at          |
      | 1       | ACC-1  | messages[0] |

  @ACC-1
  Scenario: OpenAI: a result separated from its call by a user prompt is refused
    Given the recorded requests:
      """
      {"model":"gpt-4o","messages":[{"role":"user","content":"Count files"},{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"ls","arguments":"{}"}}]},{"role":"user","content":"Hurry"},{"role":"tool","tool_call_id":"call_1","content":"42"}]}
      """
    When conform check reads them
    Then conform check finds ACC-2 in request 1 at messages[1]
    And conform check finds ACC-1 in request 1 at messages[3]

  @ACC-2 @UNIT-2
  Scenario: OpenAI: a call at the end of the request without its result is refused
    Given the recorded requests:
      """
      {"model":"gpt-4o","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Run the tests"},{"role":"assistant","content":null,"tool_calls":[{"id":"call_t","type":"function","function":{"name":"test","arguments":"{}"}}]}]}
      """
    When conform check reads them
    Then conform check finds exactly:
      | request | clause | at          |
      | 1       | ACC-2  | messages[2] |

  @ACC-2
  Scenario: Anthropic: the results of parallel calls spread over two messages are refused
    Given the recorded requests:
      """
      {"model":"claude-sonnet-4-5","max_tokens":512,"messages":[{"role":"user","content":"Read a.go and b.go"},{"role":"assistant","content":[{"type":"tool_use","id":"toolu_a","name":"read","input":{}},{"type":"tool_use","id":"toolu_b","name":"read","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_a","content":"package a"}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_b","content":"package b"}]}]}
      """
    When conform check reads them
    Then conform check finds exactly:
      | request | clause | at          |
      | 1       | ACC-2  | messages[1] |

  @ACC-2
  Scenario: OpenAI: the results of parallel calls in one tool message each, in any order, are accepted
    Given the recorded requests:
      """
      {"model":"gpt-4o","messages":[{"role":"user","content":"Read a.go and b.go"},{"role":"assistant","content":null,"tool_calls":[{"id":"call_a","type":"function","function":{"name":"read","arguments":"{}"}},{"id":"call_b","type":"function","function":{"name":"read","arguments":"{}"}}]},{"role":"tool","tool_call_id":"call_b","content":"package b"},{"role":"tool","tool_call_id":"call_a","content":"package a"}]}
      """
    When conform check reads them
    Then conform check finds nothing

  @ACC-3 @UNIT-2
  Scenario: a call id used again in a later turn is reported
    Given the recorded requests:
      """
      {"model":"local-model","messages":[{"role":"user","content":"Read a.go"},{"role":"assistant","content":null,"tool_calls":[{"id":"call_0","type":"function","function":{"name":"read","arguments":"{}"}}]},{"role":"tool","tool_call_id":"call_0","content":"package a"},{"role":"user","content":"Now b.go"},{"role":"assistant","content":null,"tool_calls":[{"id":"call_0","type":"function","function":{"name":"read","arguments":"{}"}}]},{"role":"tool","tool_call_id":"call_0","content":"package b"}]}
      """
    When conform check reads them
    Then conform check finds exactly:
      | request | clause | at          |
      | 1       | ACC-3  | messages[4] |

  @ACC-4
  Scenario: Anthropic: text before the tool result in the user message is refused
    Given the recorded requests:
      """
      {"model":"claude-sonnet-4-5","max_tokens":512,"messages":[{"role":"user","content":"Read a.go"},{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"read","input":{}}]},{"role":"user","content":[{"type":"text","text":"Here it is:"},{"type":"tool_result","tool_use_id":"toolu_1","content":"package a"}]}]}
      """
    When conform check reads them
    Then conform check finds exactly:
      | request | clause | at          |
      | 1       | ACC-4  | messages[2] |

  @ACC-4
  Scenario: Anthropic: text after the tool results is accepted
    Given the recorded requests:
      """
      {"model":"claude-sonnet-4-5","max_tokens":512,"messages":[{"role":"user","content":"Read a.go"},{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"read","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"package a"},{"type":"text","text":"Now explain it."}]}]}
      """
    When conform check reads them
    Then conform check finds nothing

  @ACC-5
  Scenario: Anthropic: a trimmed history that starts with the assistant is refused
    Given the recorded Anthropic requests:
      """
      {"model":"claude-sonnet-4-5","max_tokens":512,"system":"Be brief.","messages":[{"role":"assistant","content":"The tests pass."},{"role":"user","content":"Run them again"}]}
      """
    When conform check reads them
    Then conform check finds exactly:
      | request | clause | at          |
      | 1       | ACC-5  | messages[0] |

  @ACC-5
  Scenario: OpenAI: a request that starts with the assistant is accepted
    Given the recorded OpenAI requests:
      """
      {"model":"gpt-4o","messages":[{"role":"assistant","content":"The tests pass."},{"role":"user","content":"Run them again"}]}
      """
    When conform check reads them
    Then conform check finds nothing

  @ACC-6
  Scenario: Anthropic: a system message in the array is refused
    Given the recorded requests:
      """
      {"model":"claude-sonnet-4-5","max_tokens":512,"system":"Be brief.","messages":[{"role":"user","content":"Hi"},{"role":"system","content":"Answer in French."},{"role":"user","content":"Hello?"}]}
      """
    When conform check reads them
    Then conform check finds exactly:
      | request | clause | at          |
      | 1       | ACC-6  | messages[1] |

  @ACC-7
  Scenario: Anthropic: two user prompts in a row are accepted
    Given the recorded Anthropic requests:
      """
      {"model":"claude-sonnet-4-5","max_tokens":512,"messages":[{"role":"user","content":"Read a.go"},{"role":"user","content":"Actually, b.go"}]}
      """
    When conform check reads them
    Then conform check finds nothing

  @ACC-8
  Scenario: a request that mixes the formats is refused
    Given the recorded requests:
      """
      {"model":"gpt-4o","messages":[{"role":"user","content":"Look it up"},{"role":"assistant","content":null,"tool_calls":[{"id":"call_m","type":"function","function":{"name":"find","arguments":"{}"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_m","content":"found"}]}]}
      """
    When conform check reads them
    Then conform check finds exactly:
      | request | clause | at          |
      | 1       | ACC-8  | messages[2] |

  @ACC-8
  Scenario: an OpenAI tool message in a request declared Anthropic is refused
    Given the recorded Anthropic requests:
      """
      {"model":"claude-sonnet-4-5","max_tokens":512,"messages":[{"role":"user","content":"Hi"},{"role":"tool","tool_call_id":"x","content":"ok"}]}
      """
    When conform check reads them
    Then conform check finds ACC-8 in request 1 at messages[1]

  @ACC-9
  Scenario: an empty message array is refused
    Given the recorded requests:
      """
      {"model":"gpt-4o","messages":[]}
      {"model":"text-embedding-3-small","input":"not a chat request: skipped"}
      """
    When conform check reads them
    Then conform check finds exactly:
      | request | clause | at          |
      | 1       | ACC-9  | the request |
