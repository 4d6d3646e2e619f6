Feature: The wire protocol
  Every implementation, whatever capabilities it declares, speaks protocol v1
  (spec/protocol.md): a handshake, then typed errors for every bad input — never
  a crash, a hang or silence.

  @PROTO-1
  Scenario: the handshake names the implementation
    Then the implementation declares protocol 1 and a name

  @PROTO-2
  Scenario: an unknown method is method_not_found
    When the request "window.frobnicate" is sent with params:
      """json
      {}
      """
    Then the request fails with "method_not_found"
    And the implementation still answers

  @PROTO-2
  Scenario: a line that is not JSON is a parse error
    When the line "this is not json" is sent
    Then the response is an error of kind "parse_error"
    And the implementation still answers

  @PROTO-2
  Scenario: a JSON line that is not a request is invalid_request
    When the line "[1, 2, 3]" is sent
    Then the response is an error of kind "invalid_request"
    And the implementation still answers

  @PROTO-2 @window
  Scenario: missing params are invalid_params
    When the request "window.trim" is sent with params:
      """json
      {}
      """
    Then the request fails with "invalid_params"
    And the implementation still answers

  @PROTO-2 @window
  Scenario: mistyped params are invalid_params
    When the request "window.estimate" is sent with params:
      """json
      {"messages": "not an array"}
      """
    Then the request fails with "invalid_params"
    And the error message mentions "messages"

  @PROTO-2 @window
  Scenario: an unknown window handle is invalid_params
    When the request "window.trim" is sent with params:
      """json
      {"window": "no-such-window", "messages": []}
      """
    Then the request fails with "invalid_params"
    And the error message mentions "no-such-window"

  # PROTO-2 lists an invalid configuration among the bad input that gets an
  # error of the right kind: "ten" is a string where max_messages needs a
  # count (CFG-3), so window.create fails with invalid_config, never an
  # internal_error, and the implementation goes on answering.
  @PROTO-2 @window
  Scenario: an invalid configuration is invalid_config, not an internal error
    When the request "window.create" is sent with params:
      """json
      {"config": {"max_messages": "ten"}}
      """
    Then the request fails with "invalid_config"
    And the error message mentions "max_messages"
    And the implementation still answers
