package main

import (
	"strings"
	"testing"
)

// On Linux (where needDisplay looks, hence the file's name), without a
// display, the windows of "ui" and "battle9 view" are refused with a
// clear message and exit 1, where opening one made GLFW panic.
func TestWindowsWithoutADisplayAreRefused(t *testing.T) {
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	for _, args := range [][]string{
		{"battle9", "view", "dwarfs:orcs 4k4/9/9/9/9/9/9/4W4/4K4 1"},
		{"ui", "--camera", "0"},
	} {
		code, _, stderr := runCLI(t, "", args...)
		if code != 1 || !strings.Contains(stderr, "no display found") || strings.Contains(stderr, "panic") {
			t.Errorf("%v: exit %d, stderr %q; want 1 and the display refused", args, code, stderr)
		}
	}
}
