@tokens.cl100k
Feature: Exact cl100k_base token counts
  Token ids are exactly tiktoken's encode_ordinary for cl100k_base (003);
  expected ids come from npm tiktoken (testdata/golden/tokens holds many more).

  @TOK-1
  Scenario Outline: <what> encodes exactly
    When the text "<text>" is encoded
    Then the token ids are [<ids>]

    Examples:
      | what                                 | text             | ids                          |
      | plain words                          | hello world      | 15339, 1917                  |
      | a newline, blanks and a newline      | today\n  \n      | 31213, 14211                 |
      | DEL between letters                  | a\u007fb         | 64, 221, 65                  |
      | special-token text, as plain text    | <\|endoftext\|>   | 27, 91, 8862, 728, 428, 91, 29 |

  @TOK-1
  Scenario: a leading space belongs to the word
    When the text " the the the" is encoded
    Then the token ids are [279, 279, 279]

  @TOK-1
  Scenario: empty text has no tokens
    When the text "" is encoded
    Then the token ids are []
