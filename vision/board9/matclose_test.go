package board9

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// matCreation matches a statement that creates a gocv Mat (or one of the
// project's helpers returning one) and binds it to a name.
var matCreation = regexp.MustCompile(`^\s*(\w+)(?:, \w+)? :?= (?:gocv\.(?:NewMat\w*|IMRead|IMDecode)|\w+\.mat)\(`)

// The static half of the Mat leak check, run without build tags: in this
// package's code every Mat bound to a name is closed by a defer within
// the next lines; a Mat created in a return statement passes to the
// caller, whose binding is checked in turn. Build with -tags matprofile
// for the dynamic check (matprofile_test.go).
func TestEveryMatIsClosedByADefer(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		for i, l := range lines {
			m := matCreation.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			checked++
			if !closedSoon(lines[i+1:], m[1]) {
				t.Errorf("%s:%d: %s is not closed by a defer in the lines that follow", f, i+1, m[1])
			}
		}
	}
	if checked == 0 {
		t.Errorf("found no Mat creation to check: the pattern is out of date")
	}
}

func closedSoon(rest []string, name string) bool {
	want := "defer " + name + ".Close()"
	for i, l := range rest {
		if i >= 5 {
			break
		}
		if strings.TrimSpace(l) == want {
			return true
		}
	}
	return false
}
