package testenv

import (
	"testing"
	"time"
)

func TestPollEvery(t *testing.T) {
	for _, c := range []struct{ waited, want time.Duration }{
		{0, 50 * time.Millisecond},
		{time.Second, 100 * time.Millisecond},
		{3 * time.Second, 300 * time.Millisecond},
		{5 * time.Second, 500 * time.Millisecond},
		{5 * time.Minute, 500 * time.Millisecond},
	} {
		if got := pollEvery(c.waited); got != c.want {
			t.Errorf("pollEvery(%s) = %s, want %s", c.waited, got, c.want)
		}
	}
}
