package tokens

import "math"

// This file holds the byte-pair merge of github.com/tiktoken-go/tokenizer
// v0.7.0 (codec/codec.go, mergePairs and tokenize), copied verbatim but for
// the vocabulary, which it takes as an argument instead of a Codec field,
// and the names: the oracle of the differential tests and the baseline of
// the benchmarks. The package keeps it unexported, hence the copy.
//
// Copyright (c) 2023 tiktoken-go, under the MIT License:
// https://github.com/tiktoken-go/tokenizer/blob/v0.7.0/LICENSE

type v070Part struct {
	offset int
	rank   uint
}

func v070MergePairs(vocabulary map[string]uint, piece string) []v070Part {
	parts := make([]v070Part, len(piece)+1)
	for i := range len(parts) {
		parts[i] = v070Part{i, math.MaxUint}
	}

	getRank := func(index, skip int) uint {
		if index+skip+2 < len(parts) {
			start := parts[index].offset
			end := parts[index+skip+2].offset
			if rank, ok := vocabulary[piece[start:end]]; ok {
				return rank
			}
		}
		return math.MaxUint
	}

	for i := 0; i < len(parts)-2; i++ {
		parts[i].rank = getRank(i, 0)
	}

	for {
		if len(parts) == 1 {
			break
		}

		minRank := uint(math.MaxUint)
		minIndex := 0
		for i, p := range parts[:len(parts)-1] {
			if p.rank < minRank {
				minRank = p.rank
				minIndex = i
			}
		}

		if minRank == math.MaxUint {
			break
		}

		parts[minIndex].rank = getRank(minIndex, 1)

		if minIndex > 0 {
			parts[minIndex-1].rank = getRank(minIndex-1, 1)
		}

		parts = append(parts[:minIndex+1], parts[minIndex+2:]...)
	}

	return parts
}

// v070Merge is the token ids of piece by v0.7.0's merge, as its tokenize
// yields them for a piece that is not itself a token.
func v070Merge(vocabulary map[string]uint, piece string) []int {
	parts := v070MergePairs(vocabulary, piece)
	ids := make([]int, 0, len(parts)-1)
	for i := range len(parts) - 1 {
		token := piece[parts[i].offset:parts[i+1].offset]
		ids = append(ids, int(vocabulary[token]))
	}
	return ids
}

// v070Vocabulary is the vocabulary in v0.7.0's own type.
func v070Vocabulary() map[string]uint {
	ranks := cl100k().ranks
	v := make(map[string]uint, len(ranks))
	for k, id := range ranks {
		v[k] = uint(id)
	}
	return v
}
