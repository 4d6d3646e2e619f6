Feature: What a trim between two requests must keep
  Two consecutive requests of one conversation are read as a trim: the
  later one keeps some messages of the earlier one and adds new ones
  (SPEC.md section 8e, D-58). These scenarios check conform check's reading
  of the clauses; they talk to no implementation (D-56). Each request is
  one line, numbered from 1.

  @ACC-10 @ANY-3
  Scenario: a sliding window that drops the system prompt is reported
    Given the recorded requests:
      """
      {"model":"gpt-4o","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"},{"role":"assistant","content":"Hello"},{"role":"user","content":"Count files"}]}
      {"model":"gpt-4o","messages":[{"role":"assistant","content":"Hello"},{"role":"user","content":"Count files"},{"role":"assistant","content":"42"},{"role":"user","content":"Thanks"}]}
      """
    When conform check reads them
    Then conform check finds exactly:
      | request | clause | at          |
      | 2       | ACC-10 | messages[0] |

  @ACC-10
  Scenario: Anthropic: a request that loses the top-level system is reported
    Given the recorded requests:
      """
      {"model":"claude-sonnet-4-5","max_tokens":512,"system":"Be brief.","metadata":{"user_id":"u1"},"messages":[{"role":"user","content":"Hi"}]}
      {"model":"claude-sonnet-4-5","max_tokens":512,"metadata":{"user_id":"u1"},"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"Hello"},{"role":"user","content":"Bye"}]}
      """
    And the requests are grouped by "/metadata/user_id"
    When conform check reads them
    Then conform check finds exactly:
      | request | clause | at          |
      | 2       | ACC-10 | the request |

  @ACC-10
  Scenario: a trim that keeps the system prompt and whole units is not reported
    Given the recorded requests:
      """
      {"model":"gpt-4o","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Read a.go"},{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"read","arguments":"{}"}}]},{"role":"tool","tool_call_id":"call_1","content":"package a"},{"role":"assistant","content":"A package."},{"role":"user","content":"And b.go?"}]}
      {"model":"gpt-4o","messages":[{"role":"system","content":"Be brief."},{"role":"assistant","content":"A package."},{"role":"user","content":"And b.go?"}]}
      """
    When conform check reads them
    Then conform check finds nothing

  @ACC-11 @ANY-4
  Scenario: a trim that evicts the latest prompt without a new one is reported
    Given the recorded requests:
      """
      {"model":"gpt-4o","user":"c1","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Summarize the repo"},{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"ls","arguments":"{}"}}]},{"role":"tool","tool_call_id":"call_1","content":"a.go b.go"}]}
      {"model":"gpt-4o","user":"c1","messages":[{"role":"system","content":"Be brief."},{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"ls","arguments":"{}"}}]},{"role":"tool","tool_call_id":"call_1","content":"a.go b.go"},{"role":"assistant","content":null,"tool_calls":[{"id":"call_2","type":"function","function":{"name":"read","arguments":"{}"}}]},{"role":"tool","tool_call_id":"call_2","content":"package a"}]}
      """
    And the requests are grouped by "/user"
    When conform check reads them
    Then conform check finds exactly:
      | request | clause | at          |
      | 2       | ACC-11 | the request |

  @ACC-11
  Scenario: a trim that evicts the old prompt after a new one was added is not reported
    Given the recorded requests:
      """
      {"model":"gpt-4o","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"},{"role":"assistant","content":"Hello"}]}
      {"model":"gpt-4o","messages":[{"role":"system","content":"Be brief."},{"role":"assistant","content":"Hello"},{"role":"user","content":"Bye"}]}
      """
    When conform check reads them
    Then conform check finds nothing

  @ACC-12 @UNIT-3
  Scenario: a trim that keeps a call's result without the call is reported under the trim
    Given the recorded requests:
      """
      {"model":"gpt-4o","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Read a.go"},{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"read","arguments":"{}"}}]},{"role":"tool","tool_call_id":"call_1","content":"package a"},{"role":"assistant","content":"A package."},{"role":"user","content":"And b.go?"}]}
      {"model":"gpt-4o","messages":[{"role":"system","content":"Be brief."},{"role":"tool","tool_call_id":"call_1","content":"package a"},{"role":"assistant","content":"A package."},{"role":"user","content":"And b.go?"}]}
      """
    When conform check reads them
    Then conform check finds exactly:
      | request | clause | at          |
      | 2       | ACC-1  | messages[1] |
      | 2       | ACC-12 | messages[1] |

  @ACC-12
  Scenario: Anthropic: a trim that keeps one of two parallel results is reported
    Given the recorded requests:
      """
      {"model":"claude-sonnet-4-5","max_tokens":512,"metadata":{"user_id":"u2"},"messages":[{"role":"user","content":"Read a.go and b.go"},{"role":"assistant","content":[{"type":"tool_use","id":"toolu_a","name":"read","input":{}},{"type":"tool_use","id":"toolu_b","name":"read","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_a","content":"package a"},{"type":"tool_result","tool_use_id":"toolu_b","content":"package b"}]}]}
      {"model":"claude-sonnet-4-5","max_tokens":512,"metadata":{"user_id":"u2"},"messages":[{"role":"user","content":"Read a.go and b.go"},{"role":"assistant","content":[{"type":"tool_use","id":"toolu_a","name":"read","input":{}},{"type":"tool_use","id":"toolu_b","name":"read","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_a","content":"package a"}]}]}
      """
    And the requests are grouped by "/metadata/user_id"
    When conform check reads them
    Then conform check finds ACC-12 in request 2 at messages[1]
    And conform check finds ACC-2 in request 2 at messages[1]

  @ACC-13 @ANY-1
  Scenario: a history rebuilt from an older copy brings evicted messages back
    Given the recorded requests:
      """
      {"model":"gpt-4o","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Read the README"},{"role":"assistant","content":"It is about convspec."},{"role":"user","content":"Who wrote it?"}]}
      {"model":"gpt-4o","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Who wrote it?"},{"role":"assistant","content":"Its authors."},{"role":"user","content":"When?"}]}
      {"model":"gpt-4o","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Read the README"},{"role":"user","content":"Who wrote it?"},{"role":"assistant","content":"Its authors."},{"role":"user","content":"When?"},{"role":"assistant","content":"In 2026."},{"role":"user","content":"Thanks"}]}
      """
    When conform check reads them
    Then conform check finds exactly:
      | request | clause | at          |
      | 3       | ACC-13 | messages[1] |

  @ACC-13
  Scenario: kept messages sent out of their order are reported
    Given the recorded requests:
      """
      {"model":"gpt-4o","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"one"},{"role":"assistant","content":"two"},{"role":"user","content":"three"}]}
      {"model":"gpt-4o","messages":[{"role":"system","content":"Be brief."},{"role":"assistant","content":"two"},{"role":"user","content":"one"},{"role":"user","content":"three"},{"role":"assistant","content":"four"},{"role":"user","content":"five"}]}
      """
    When conform check reads them
    Then conform check finds ACC-13 in request 2 at messages[2]

  @ACC-13
  Scenario: a prompt said again after it was evicted is a new message
    Given the recorded requests:
      """
      {"model":"gpt-4o","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"go on"},{"role":"assistant","content":"Step 1 done."},{"role":"user","content":"next"}]}
      {"model":"gpt-4o","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"next"},{"role":"assistant","content":"Step 2 done."},{"role":"user","content":"go on"}]}
      """
    When conform check reads them
    Then conform check finds nothing
