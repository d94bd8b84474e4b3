package claudeproc

// Current reads the process table as it is now, from /proc.
func Current() *Snapshot {
	s, err := Scan("/proc")
	if err != nil {
		return Unreadable(err)
	}
	return s
}
