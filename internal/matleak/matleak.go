//go:build matprofile

package matleak

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"gocv.io/x/gocv"
)

// Main runs the tests and exits non-zero when any gocv Mat is left open,
// printing where each was created.
func Main(m *testing.M) {
	code := m.Run()
	if n := gocv.MatProfile.Count(); n != 0 {
		var b bytes.Buffer
		gocv.MatProfile.WriteTo(&b, 1)
		fmt.Fprintf(os.Stderr, "%d gocv Mats left open:\n%s", n, b.String())
		code = 1
	}
	os.Exit(code)
}
