package tokens

// pattern is cl100k_base's pre-tokenization pattern, the one tiktoken-go's
// codec v0.7.0 and npm tiktoken compile,
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// with one change, so that regexp2 (a .NET-style engine over Go's unicode
// tables) splits exactly where tiktoken's Rust regex does: \p{L} and \p{N}
// also hold the letters and numbers that Unicode 15.1 and 16.0 added
// (addedLetters, addedNumbers). Go's unicode package is at Unicode 15.0.0,
// the Rust regex of npm tiktoken 1.0.22 at 16.0: without them, v0.7.0
// encodes 5,004 code points differently (Garay, Kirat Rai, Egyptian
// hieroglyphs of Extended-A and CJK Extension I among them).
//
// \s is White_Space in both engines (regexp2 asks unicode.IsSpace). The
// engines differ on (?i:'s): Rust folds case, so it also matches 'ſ
// (U+017F LATIN SMALL LETTER LONG S), while regexp2 compares lower cases and
// does not. That cannot change a token: no cl100k_base token holds the last
// byte of ſ followed by another byte, so no token crosses the boundary that
// Rust puts after 'ſ and regexp2 does not. The pattern keeps v0.7.0's (?i:…)
// (TestLongSContractionIsUnobservable).
//
// Encode does not run the regexp: pieceEnd (pretokenize.go) is a scanner
// for exactly this pattern as regexp2 reads it, about sixty times faster
// per piece (BenchmarkPretokenize), and the regexp is the oracle the tests
// compare it with
// (FuzzPretokenize, TestClassTableMatchesRegexp,
// TestContractionsMatchRegexp).
const pattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)` +
	`|[^\r\n` + letters + numbers + `]?[` + letters + `]+` +
	`|[` + numbers + `]{1,3}` +
	`| ?[^\s` + letters + numbers + `]+[\r\n]*` +
	`|\s*[\r\n]+` +
	`|\s+(?!\S)` +
	`|\s+`

// letters and numbers are the contents of the character classes standing
// for \p{L} and \p{N} in pattern.
const (
	letters = `\p{L}` + addedLetters
	numbers = `\p{N}` + addedNumbers
)

// addedLetters are the code points of general category L (Lu, Ll, Lt, Lm,
// Lo) that Unicode 15.1 and 16.0 assigned, as character-class ranges of
// literal runes. They were found by encoding every code point from U+0000 to
// U+10FFFF in probe strings with npm tiktoken 1.0.22 and with v0.7.0, and
// classifying the code points where the two disagreed; the golden cases
// tok-unicode-16-* hold samples.
const addedLetters = "" +
	"\u1C89-\u1C8A" + // Cyrillic TJE (16.0)
	"\uA7CB-\uA7CD" + // Latin Extended-D (16.0)
	"\uA7DA-\uA7DC" + // Latin Extended-D (16.0)
	"\U000105C0-\U000105F3" + // Todhri (16.0)
	"\U00010D4A-\U00010D65" + // Garay letters (16.0)
	"\U00010D6F-\U00010D85" + // Garay letters (16.0)
	"\U00010EC2-\U00010EC4" + // Arabic Extended-C (16.0)
	"\U00011380-\U00011389" + // Tulu-Tigalari (16.0)
	"\U0001138B" +
	"\U0001138E" +
	"\U00011390-\U000113B5" +
	"\U000113B7" +
	"\U000113D1" +
	"\U000113D3" +
	"\U00011BC0-\U00011BE0" + // Sunuwar (16.0)
	"\U00013460-\U000143FA" + // Egyptian Hieroglyphs Extended-A (16.0)
	"\U00016100-\U0001611D" + // Gurung Khema (16.0)
	"\U00016D40-\U00016D6C" + // Kirat Rai (16.0)
	"\U00018CFF" + // Khitan Small Script (16.0)
	"\U0001E5D0-\U0001E5ED" + // Ol Onal (16.0)
	"\U0001E5F0" +
	"\U0002EBF0-\U0002EE5D" // CJK Unified Ideographs Extension I (15.1)

// addedNumbers are the code points of general category N (Nd, Nl, No) that
// Unicode 15.1 and 16.0 assigned, found and checked as addedLetters.
const addedNumbers = "" +
	"\U00010D40-\U00010D49" + // Garay digits (16.0)
	"\U000116D0-\U000116E3" + // Myanmar Extended-C digits (16.0)
	"\U00011BF0-\U00011BF9" + // Sunuwar digits (16.0)
	"\U00016130-\U00016139" + // Gurung Khema digits (16.0)
	"\U00016D70-\U00016D79" + // Kirat Rai digits (16.0)
	"\U0001CCF0-\U0001CCF9" + // Outlined digits (16.0)
	"\U0001E5F1-\U0001E5FA" // Ol Onal digits (16.0)
