package fault

// All is every point the reference consults, each list next to the
// points it names; a test checks that each one is turned on by a variant
// of the catalogue and reached by the cases that kill it.
func All() []Point {
	return concat(windowPoints(), loopPoints(), budgetPoints())
}

func concat(lists ...[]Point) []Point {
	var all []Point
	for _, l := range lists {
		all = append(all, l...)
	}
	return all
}
