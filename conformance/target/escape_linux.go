package target

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// Descendants that leave the process group — a daemon in a session of its
// own (setsid), a child that moved to another group (setpgid) — survive
// the group's SIGKILL, one per restart and per worker, and used to outlive
// the run. On Linux the harness finds them (spec/protocol.md, "Lifecycle";
// D-52): when a child is ended, every descendant
// of it is found by walking /proc, and those outside its group are killed
// by pid; with BecomeSubreaper, a descendant whose parent died is handed
// to this process instead of init, so that one that escaped before the
// walk is found among its own children, killed and reaped. Each is
// recorded, and a run that left any is not a pass.

// subreaper says that BecomeSubreaper succeeded: orphaned descendants are
// this process's children, and sweepOrphans may reap them.
var subreaper atomic.Bool

// sweeping serializes sweepOrphans.
var sweeping sync.Mutex

// BecomeSubreaper makes this process the reaper of its orphaned
// descendants (prctl PR_SET_CHILD_SUBREAPER), so that none can escape to
// init. Only a program whose every child is started by this package may
// call it: sweepOrphans kills and reaps any child it did not start.
func BecomeSubreaper() error {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("prctl PR_SET_CHILD_SUBREAPER: %w", err)
	}
	subreaper.Store(true)
	return nil
}

// live holds the pids of the children this package started and has not
// reaped yet: sweepOrphans leaves them to their exec.Cmd.
var live struct {
	sync.Mutex
	pids map[int]bool
}

func trackChild(pid int) {
	live.Lock()
	defer live.Unlock()
	if live.pids == nil {
		live.pids = map[int]bool{}
	}
	live.pids[pid] = true
}

func untrackChild(pid int) {
	live.Lock()
	defer live.Unlock()
	delete(live.pids, pid)
}

// procEntry is one line of /proc/PID/stat, the fields the walk needs.
type procEntry struct {
	pid, ppid, pgrp int
	state           byte
	comm            string
}

// listProcs reads every process's pid, parent, group, state and name.
func listProcs() []procEntry {
	dir, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []procEntry
	for _, d := range dir {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue // gone meanwhile
		}
		// pid (comm) state ppid pgrp …; comm may hold spaces and parentheses.
		open, end := bytes.IndexByte(data, '('), bytes.LastIndexByte(data, ')')
		if open < 0 || end < open {
			continue
		}
		f := bytes.Fields(data[end+1:])
		if len(f) < 3 {
			continue
		}
		ppid, _ := strconv.Atoi(string(f[1]))
		pgrp, _ := strconv.Atoi(string(f[2]))
		out = append(out, procEntry{pid: pid, ppid: ppid, pgrp: pgrp, state: f[0][0], comm: string(data[open+1 : end])})
	}
	return out
}

// killEscaped kills every living descendant of root that is outside the
// process group pgid, and says which it killed.
func killEscaped(root, pgid int) []string {
	procs := listProcs()
	children := map[int][]procEntry{}
	for _, p := range procs {
		children[p.ppid] = append(children[p.ppid], p)
	}
	var escaped []string
	queue := []int{root}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		for _, c := range children[pid] {
			queue = append(queue, c.pid)
			if c.pgrp != pgid && c.state != 'Z' && c.state != 'X' {
				_ = unix.Kill(c.pid, unix.SIGKILL)
				escaped = append(escaped, describeProc(c))
			}
		}
	}
	return escaped
}

// sweepOrphans kills and reaps the children of this process that it did
// not start — orphaned descendants handed to it as their subreaper — and
// says which were still running outside the group pgid (one inside it is
// the group's own, dying of its SIGKILL).
func sweepOrphans(pgid int) []string {
	if !subreaper.Load() {
		return nil
	}
	// One sweep at a time: the workers' children are all this process's,
	// and an orphan is reaped, and named, once.
	sweeping.Lock()
	defer sweeping.Unlock()
	self := os.Getpid()
	live.Lock()
	tracked := make(map[int]bool, len(live.pids))
	for pid := range live.pids {
		tracked[pid] = true
	}
	live.Unlock()
	var escaped []string
	// Again while it finds any: killing one hands its own children to
	// this process in turn (a daemon that forked twice).
	for range 10 {
		found := false
		for _, p := range listProcs() {
			if p.ppid != self || tracked[p.pid] {
				continue
			}
			found = true
			if p.state != 'Z' && p.state != 'X' && p.pgrp != pgid {
				escaped = append(escaped, describeProc(p))
			}
			_ = unix.Kill(p.pid, unix.SIGKILL)
			reap(p.pid)
		}
		if !found {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	return escaped
}

// reap waits for a killed child, briefly: one stuck in the kernel is left.
func reap(pid int) {
	deadline := time.Now().Add(time.Second)
	for {
		var ws unix.WaitStatus
		got, err := unix.Wait4(pid, &ws, unix.WNOHANG, nil)
		if got == pid || err != nil || time.Now().After(deadline) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func describeProc(p procEntry) string {
	return fmt.Sprintf("pid %d (%s)", p.pid, p.comm)
}
