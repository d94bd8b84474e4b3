//go:build !linux

package configdir

import "time"

// granularity is how far a timestamp the file system puts on a file in dir
// can fall behind the clock the launcher reads (SyncStamp): two seconds,
// which covers HFS+ and FAT, outside Linux.
func granularity(dir string) time.Duration { return 2 * time.Second }
