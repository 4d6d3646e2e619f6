//go:build unix

package usertest

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// The shared conform is built under this lock: while one test binary holds
// it, another cannot take it (two go builds would write one file at once),
// and once released it can.
func TestLockExcludesAnotherHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "build.lock")
	unlock, err := lock(path)
	if err != nil {
		t.Fatal(err)
	}
	other, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := syscall.Flock(int(other.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != syscall.EWOULDBLOCK {
		t.Fatalf("a second holder took the lock while it was held (err %v)", err)
	}
	unlock()
	if err := syscall.Flock(int(other.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatalf("the lock was not released: %v", err)
	}
}

func TestSharedDirIsOnePerCheckout(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	a, err := sharedDir("/one/checkout")
	if err != nil {
		t.Fatal(err)
	}
	again, _ := sharedDir("/one/checkout")
	b, _ := sharedDir("/another/checkout")
	if a != again || a == b {
		t.Fatalf("shared directories %q, %q (again) and %q (another checkout)", a, again, b)
	}
	if fi, err := os.Stat(a); err != nil || !fi.IsDir() {
		t.Fatalf("%s was not created: %v", a, err)
	}
}
