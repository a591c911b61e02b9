package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestNoFyneLocaleErrorUnderCUTF8 runs this test binary again under
// LANG=C.UTF-8 (it runs no test: -test.run matches none) and checks that
// nothing is logged while the packages initialise: Fyne's lang package
// reads the locale in its init, before main, and used to log "Fyne error:
// Error parsing user locale C" for every command.
func TestNoFyneLocaleErrorUnderCUTF8(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE":
			continue
		}
		env = append(env, kv)
	}
	cmd.Env = append(env, "LANG=C.UTF-8")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("re-running the test binary: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "Fyne error") {
		t.Errorf("got Fyne's locale error under LANG=C.UTF-8:\n%s", out)
	}
}
