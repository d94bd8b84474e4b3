package configdir

import (
	"syscall"
	"time"
)

// granularity is how far a timestamp the file system puts on a file in dir
// can fall behind the clock the launcher reads (SyncStamp). The local file
// systems below keep nanoseconds, stamped from the kernel's coarse clock,
// which lags by at most a tick (10 ms at the lowest HZ): twice that. Any
// other — FAT's two seconds, a network file system stamped by a server's
// clock — gets two seconds.
func granularity(dir string) time.Duration {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err == nil {
		switch uint32(st.Type) {
		case 0xEF53, // ext2, ext3, ext4
			0x58465342, // xfs
			0x9123683E, // btrfs
			0x01021994, // tmpfs
			0xF2F52010, // f2fs
			0x2FC12FC1, // zfs
			0xCA451A4E, // bcachefs
			0x794C7630: // overlayfs
			return 20 * time.Millisecond
		}
	}
	return 2 * time.Second
}
