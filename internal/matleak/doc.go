// Package matleak fails a test binary that leaves a gocv Mat open. It
// works only in builds with gocv's matprofile tag, which count every Mat
// created and not yet closed:
//
//	//go:build matprofile
//	func TestMain(m *testing.M) { matleak.Main(m) }
//
// CheckDefers, the static half, works in every build. It imports gocv
// and nothing of this project.
package matleak
