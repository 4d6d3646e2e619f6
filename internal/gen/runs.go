package gen

// RunEnd is the index of the last element of the run that starts at
// xs[i]: the elements after it for as long as each follows the one before
// (follows(a, b): b comes right after a).
func RunEnd[T any](xs []T, i int, follows func(a, b T) bool) int {
	j := i
	for j+1 < len(xs) && follows(xs[j], xs[j+1]) {
		j++
	}
	return j
}
