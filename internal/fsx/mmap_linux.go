package fsx

import "syscall"

// mapPopulate asks the kernel to map every page at once: one call instead of
// a fault per page while scanning.
const mapPopulate = syscall.MAP_POPULATE
