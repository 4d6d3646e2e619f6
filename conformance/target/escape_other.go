//go:build !linux

package target

import "errors"

// BecomeSubreaper is Linux only (prctl PR_SET_CHILD_SUBREAPER); elsewhere
// a descendant that leaves the process group is not found.
func BecomeSubreaper() error { return errors.New("a child subreaper needs Linux") }

func trackChild(int)                      {}
func untrackChild(int)                    {}
func killEscaped(root, pgid int) []string { return nil }
func sweepOrphans(pgid int) []string      { return nil }
