package golden

// Render is what Write writes, for the test that compares it with the
// checked-in cases without writing, compressing and reading back (D-91).
var Render = render
