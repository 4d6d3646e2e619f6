//go:build unix

package usertest

import (
	"fmt"
	"os"
	"syscall"
)

// lock takes an exclusive lock on the file at path, creating it, and
// returns what releases it. The lock is the kernel's (flock), so it holds
// between the test binaries go test runs side by side, and a test binary
// that dies releases it.
func lock(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	return func() { f.Close() }, nil // closing the file releases the lock
}
