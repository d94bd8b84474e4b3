//go:build !linux

package fsx

const mapPopulate = 0
