//go:build matprofile

package board9

import (
	"testing"

	"tableref/internal/matleak"
)

// TestMain, built with -tags matprofile, fails the package when a test
// leaves a gocv Mat open.
func TestMain(m *testing.M) { matleak.Main(m) }
