package vision

import (
	"testing"

	"tableref/internal/matleak"
)

// The static half of the Mat leak check (the dynamic half is the
// matprofile build of TestMain).
func TestEveryMatIsClosedByADefer(t *testing.T) { matleak.CheckDefers(t, ".") }
