//go:build matprofile

package board9

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"gocv.io/x/gocv"
)

// TestMain, built with -tags matprofile, fails the package when a test
// leaves a gocv Mat open (gocv's MatProfile counts every Mat created and
// not yet closed).
func TestMain(m *testing.M) {
	code := m.Run()
	if n := gocv.MatProfile.Count(); n != 0 {
		var b bytes.Buffer
		gocv.MatProfile.WriteTo(&b, 1)
		fmt.Fprintf(os.Stderr, "%d gocv Mats left open:\n%s", n, b.String())
		code = 1
	}
	os.Exit(code)
}
