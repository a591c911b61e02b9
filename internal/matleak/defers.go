package matleak

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// matCreation matches a statement that creates a gocv Mat (or one of a
// package's helpers returning one) and binds it to a name.
var matCreation = regexp.MustCompile(`^\s*(\w+)(?:, \w+)? :?= (?:gocv\.(?:NewMat\w*|IMRead|IMDecode|ImageToMatRGB\w*)|\w+\.mat)\(`)

// CheckDefers is the static half of the Mat leak check, run without build
// tags: in the non-test Go files of dir, every Mat bound to a name must be
// closed by a defer within the next five lines. A Mat created in a return
// statement passes to the caller, whose binding is checked in turn. It
// fails when it finds no Mat creation at all (its pattern would be out of
// date).
func CheckDefers(t *testing.T, dir string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
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
		t.Errorf("found no Mat creation to check in %s: the pattern is out of date", dir)
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
