//go:build !unix

package usertest

import "errors"

// lock is not implemented here: Conform builds into a directory of its own.
func lock(string) (func(), error) {
	return nil, errors.New("no file lock on this system")
}
