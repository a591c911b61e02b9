package calibration

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"tableref/models"
)

// FileVersion is the calibration file version this package reads and
// writes; FileFormat the value of its "format" field.
const (
	FileVersion = 1
	FileFormat  = "tableref-calibration"
)

// Errors of calibration files, for errors.Is.
var (
	// ErrCorrupt: the file is not a calibration file or a value in it is
	// wrong (not JSON, a field missing, a focal length of zero, ...).
	ErrCorrupt = errors.New("corrupt calibration file")
	// ErrVersion: the file has a version this program does not read.
	ErrVersion = errors.New("unsupported calibration file version")
	// ErrMismatch: the calibration does not fit the frames it is used on.
	ErrMismatch = errors.New("calibration does not match")
)

// file is the JSON form of a calibration, version 1.
type file struct {
	Format     string         `json:"format"`
	Version    int            `json:"version"`
	Image      *fileImage     `json:"image"`
	Lens       *fileLens      `json:"lens"`
	Board      *Board         `json:"board,omitempty"`
	Pose       *filePose      `json:"pose"`
	Homography *[3][3]float64 `json:"homography"`
	Quality    fileQuality    `json:"quality"`
}

type fileImage struct {
	Width  int `json:"width"`
	Height int `json:"height"`
}

type fileLens struct {
	Source       string         `json:"source"`
	CameraMatrix *[3][3]float64 `json:"camera_matrix"`
	Distortion   []float64      `json:"distortion"`
	RMSPx        float64        `json:"rms_px"`
	Views        int            `json:"views"`
}

type filePose struct {
	Rvec  *[3]float64 `json:"rvec"`
	TvecC *[3]float64 `json:"tvec_cm"`
}

type fileQuality struct {
	RMSPx       float64    `json:"rms_px"`
	PlaneRMSPx  float64    `json:"plane_rms_px"`
	PlanePoints int        `json:"plane_points"`
	Scale       float64    `json:"scale,omitempty"`
	ScaleX      float64    `json:"scale_x,omitempty"`
	ScaleY      float64    `json:"scale_y,omitempty"`
	Uncertainty fileUncert `json:"uncertainty_mm"`
	BoardWhite  float64    `json:"board_white,omitempty"`
	BoardRGB    []float64  `json:"board_white_rgb,omitempty"`
}

type fileUncert struct {
	Centre float64 `json:"centre"`
	Edge   float64 `json:"edge"`
	Corner float64 `json:"corner"`
}

// Marshal returns the calibration file (JSON, version 1) for c.
func Marshal(c *Calibration) ([]byte, error) {
	l := c.Lens
	k := [3][3]float64{{l.FX, 0, l.CX}, {0, l.FY, l.CY}, {0, 0, 1}}
	rv, tv := [3]float64(c.Pose.Rvec()), [3]float64(c.Pose.T)
	h := [3][3]float64(c.Plane.H)
	q := c.Quality
	f := file{
		Format: FileFormat, Version: FileVersion,
		Image: &fileImage{l.Width, l.Height},
		Lens: &fileLens{Source: l.Source, CameraMatrix: &k,
			Distortion: []float64{l.K1, l.K2, l.P1, l.P2, l.K3}, RMSPx: l.RMSPx, Views: l.Views},
		Board:      c.Board,
		Pose:       &filePose{Rvec: &rv, TvecC: &tv},
		Homography: &h,
		Quality: fileQuality{RMSPx: q.RMSPx, PlaneRMSPx: q.PlaneRMSPx, PlanePoints: q.PlanePoints,
			Scale: q.Scale, ScaleX: q.ScaleX, ScaleY: q.ScaleY,
			Uncertainty: fileUncert{q.Uncertainty.CentreMM, q.Uncertainty.EdgeMM, q.Uncertainty.CornerMM},
			BoardWhite:  q.BoardWhite, BoardRGB: boardRGB(q.BoardWhiteRGB)},
	}
	if err := checkFinite(f); err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding calibration: %w", err)
	}
	return append(b, '\n'), nil
}

// boardRGB is the file's board_white_rgb: nil when not measured.
func boardRGB(rgb [3]float64) []float64 {
	if rgb == ([3]float64{}) {
		return nil
	}
	return rgb[:]
}

// checkFinite refuses to write numbers JSON cannot hold.
func checkFinite(f file) error {
	vals := []float64{f.Lens.RMSPx, f.Quality.PlaneRMSPx, f.Quality.Scale, f.Quality.Uncertainty.Centre,
		f.Quality.Uncertainty.Edge, f.Quality.Uncertainty.Corner, f.Quality.BoardWhite}
	vals = append(vals, f.Lens.Distortion...)
	vals = append(vals, f.Quality.BoardRGB...)
	for _, r := range append(f.Lens.CameraMatrix[:], f.Homography[:]...) {
		vals = append(vals, r[:]...)
	}
	vals = append(vals, f.Pose.Rvec[:]...)
	vals = append(vals, f.Pose.TvecC[:]...)
	for _, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("encoding calibration: %w", ErrCamera)
		}
	}
	return nil
}

// Save writes c to path, creating its directory, replacing the file only
// once the new one is complete. It refuses, leaving any file at path as
// it was, a calibration that Load would refuse: a file that cannot be
// read back is worse than none, since it replaces one that could.
func Save(path string, c *Calibration) error {
	b, err := Marshal(c)
	if err != nil {
		return err
	}
	if _, err := Parse(b); err != nil {
		return fmt.Errorf("not saving the calibration to %s (it would not load back; any file there is kept): %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("saving calibration: %w", err)
	}
	if err := models.WriteFileAtomic(path, b); err != nil {
		return fmt.Errorf("saving calibration to %s: %w", path, err)
	}
	return nil
}

// DefaultPath is where the calibration lives when no path is given:
// tableref/calibration.json in the user's configuration directory.
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("finding the configuration directory: %w", err)
	}
	return filepath.Join(dir, "tableref", "calibration.json"), nil
}

// Load reads the calibration file at path.
func Load(path string) (*Calibration, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading calibration: %w", err)
	}
	c, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("calibration file %s: %w", path, err)
	}
	return c, nil
}

// Read reads a calibration file from r.
func Read(r io.Reader) (*Calibration, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading calibration: %w", err)
	}
	return Parse(b)
}

const maxFileSize = 1 << 20

// Parse decodes and checks a calibration file. Every error wraps
// ErrCorrupt or ErrVersion.
func Parse(data []byte) (*Calibration, error) {
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("%w: larger than %d bytes", ErrCorrupt, maxFileSize)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("%w: the file is empty", ErrCorrupt)
	}
	// The format and version first: another version may lay out the
	// other fields differently, and must be reported as a version this
	// program does not read, not as a corrupt file.
	var head struct {
		Format  string      `json:"format"`
		Version json.Number `json:"version"`
	}
	if err := decodeOne(data, &head); err != nil {
		return nil, err
	}
	if head.Format == "" {
		return nil, fmt.Errorf("%w: not a calibration file (no \"format\": %q; a layout or another JSON file?)", ErrCorrupt, FileFormat)
	}
	if head.Format != FileFormat {
		return nil, fmt.Errorf("%w: format is %q, want %q", ErrCorrupt, head.Format, FileFormat)
	}
	if head.Version != json.Number(strconv.Itoa(FileVersion)) {
		v := string(head.Version)
		if v == "" {
			v = "none"
		}
		return nil, fmt.Errorf("%w: version %s, this tableref reads version %d", ErrVersion, v, FileVersion)
	}
	var f file
	if err := decodeOne(data, &f); err != nil {
		return nil, err
	}
	return f.calibration()
}

// decodeOne decodes data, which must hold exactly one JSON value, into v.
func decodeOne(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return fmt.Errorf("%w: the JSON ends before the calibration does (cut short?)", ErrCorrupt)
		}
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if dec.More() {
		return fmt.Errorf("%w: data after the calibration object", ErrCorrupt)
	}
	return nil
}

func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
}

func (f file) calibration() (*Calibration, error) {
	switch {
	case f.Image == nil:
		return nil, corrupt(`"image" is missing`)
	case f.Lens == nil:
		return nil, corrupt(`"lens" is missing`)
	case f.Lens.CameraMatrix == nil:
		return nil, corrupt(`"lens.camera_matrix" is missing`)
	case f.Pose == nil || f.Pose.Rvec == nil || f.Pose.TvecC == nil:
		return nil, corrupt(`"pose" with "rvec" and "tvec_cm" is missing`)
	case f.Homography == nil:
		return nil, corrupt(`"homography" is missing`)
	case f.Image.Width <= 0 || f.Image.Height <= 0 || f.Image.Width > 1<<16 || f.Image.Height > 1<<16:
		return nil, corrupt("image size %dx%d", f.Image.Width, f.Image.Height)
	}
	lens, err := f.Lens.lens(f.Image.Width, f.Image.Height)
	if err != nil {
		return nil, err
	}
	if f.Board != nil {
		if err := f.Board.Validate(); err != nil {
			return nil, corrupt("%v", err)
		}
	}
	pose := Pose{R: Rodrigues(Vec3(*f.Pose.Rvec)), T: Vec3(*f.Pose.TvecC)}
	if !finite(f.Pose.Rvec[:]) || !finite(f.Pose.TvecC[:]) || pose.T[2] <= 0 {
		return nil, corrupt("the pose does not put the table in front of the camera")
	}
	h := Mat3(*f.Homography)
	for _, r := range h {
		if !finite(r[:]) {
			return nil, corrupt("the homography holds a value that is not a number")
		}
	}
	plane, err := newPlane(h, pose.Centre(), Pixel{lens.CX, lens.CY})
	if err != nil {
		return nil, corrupt("%v", err)
	}
	if err := checkAgreement(lens, pose, plane); err != nil {
		return nil, err
	}
	q := f.Quality
	if q.RMSPx < 0 || q.PlaneRMSPx < 0 || q.PlanePoints < 0 || q.Scale < 0 || q.ScaleX < 0 || q.ScaleY < 0 ||
		q.Uncertainty.Centre < 0 || q.Uncertainty.Edge < 0 || q.Uncertainty.Corner < 0 {
		return nil, corrupt("a quality figure is negative (RMS, point count, scale and uncertainty cannot be)")
	}
	if !(q.BoardWhite >= 0 && q.BoardWhite <= 255) {
		return nil, corrupt("quality board_white %g: a grey level is 0 to 255 (0: not measured)", q.BoardWhite)
	}
	var rgb [3]float64
	if q.BoardRGB != nil {
		if len(q.BoardRGB) != 3 {
			return nil, corrupt("quality board_white_rgb has %d values: want red, green and blue", len(q.BoardRGB))
		}
		rgb = [3]float64(q.BoardRGB)
		for _, v := range rgb {
			if !(v >= 0 && v <= 255) {
				return nil, corrupt("quality board_white_rgb %v: levels are 0 to 255", rgb)
			}
		}
	}
	return &Calibration{Lens: lens, Board: f.Board, Pose: pose, Plane: plane, Quality: Quality{
		RMSPx: q.RMSPx, PlaneRMSPx: q.PlaneRMSPx, PlanePoints: q.PlanePoints,
		Scale: q.Scale, ScaleX: q.ScaleX, ScaleY: q.ScaleY,
		Uncertainty: Uncertainty{q.Uncertainty.Centre, q.Uncertainty.Edge, q.Uncertainty.Corner},
		BoardWhite:  q.BoardWhite, BoardWhiteRGB: rgb,
	}}, nil
}

func (fl fileLens) lens(w, h int) (Lens, error) {
	k := fl.CameraMatrix
	if !finite(k[0][:]) || !finite(k[1][:]) || !finite(k[2][:]) {
		return Lens{}, corrupt("the camera matrix holds a value that is not a number")
	}
	if k[0][1] != 0 || k[1][0] != 0 || k[2][0] != 0 || k[2][1] != 0 || k[2][2] != 1 {
		return Lens{}, corrupt("the camera matrix is not of the form [[fx 0 cx] [0 fy cy] [0 0 1]]")
	}
	if len(fl.Distortion) != 5 && len(fl.Distortion) != 4 {
		return Lens{}, corrupt("distortion has %d coefficients, want 5 (k1 k2 p1 p2 k3)", len(fl.Distortion))
	}
	if !finite(fl.Distortion) || !finite([]float64{fl.RMSPx}) {
		return Lens{}, corrupt("the distortion holds a value that is not a number")
	}
	if fl.RMSPx < 0 || fl.Views < 0 {
		return Lens{}, corrupt("lens rms_px %g and views %d: neither can be negative", fl.RMSPx, fl.Views)
	}
	d := append(append([]float64(nil), fl.Distortion...), 0)
	switch fl.Source {
	case SourceChessboard, SourceEstimated, SourceSynthetic:
	default:
		return Lens{}, corrupt("lens source %q: want %s, %s or %s", fl.Source, SourceChessboard, SourceEstimated, SourceSynthetic)
	}
	l := Lens{Camera: Camera{Width: w, Height: h, Intrinsics: Intrinsics{k[0][0], k[1][1], k[0][2], k[1][2]},
		Distortion: Distortion{d[0], d[1], d[2], d[3], d[4]}}, Source: fl.Source, RMSPx: fl.RMSPx, Views: fl.Views}
	// The same checks as for a freshly calibrated lens, so that what
	// Save writes Load reads.
	if err := l.Validate(); err != nil {
		return Lens{}, corrupt("%v", err)
	}
	return l, nil
}

// checkAgreement makes sure the homography and the pose describe the same
// table: the principal point must land on the table through both, within
// 1 % of the camera's height.
func checkAgreement(l Lens, pose Pose, plane Plane) error {
	x, y := l.Normalise(Pixel{l.CX, l.CY})
	viaPose, ok := tableFromPose(poseParams(pose), x, y)
	if !ok {
		return corrupt("the pose does not see the table at the image centre")
	}
	viaH, err := plane.TableFromUndistorted(Pixel{l.CX, l.CY}, 0)
	if err != nil {
		return corrupt("the homography does not see the table at the image centre")
	}
	d := math.Hypot(viaPose[0]-float64(viaH.X), viaPose[1]-float64(viaH.Y))
	if d > 0.01*float64(plane.EyeHeight)+0.5 {
		return fmt.Errorf("%w: the homography and the pose disagree by %.3g cm at the image centre", ErrCorrupt, d)
	}
	// Away from the centre the lens model matters too: pixels a quarter of
	// the frame from the centre must map to the table as the pose says.
	for _, f := range [][2]float64{{0.25, 0}, {-0.25, 0}, {0, 0.25}, {0, -0.25}} {
		px := Pixel{l.CX + f[0]*float64(l.Width), l.CY + f[1]*float64(l.Height)}
		x, y := l.Normalise(px)
		viaPose, ok := tableFromPose(poseParams(pose), x, y)
		if !ok {
			continue // above the horizon: nothing to compare
		}
		viaH, err := plane.TableFromUndistorted(l.Undistorted(px), 0)
		if err != nil {
			return corrupt("the homography does not see the table where the pose does")
		}
		if d := math.Hypot(viaPose[0]-float64(viaH.X), viaPose[1]-float64(viaH.Y)); d > 0.02*float64(plane.EyeHeight)+1 || math.IsNaN(d) {
			return fmt.Errorf("%w: the lens, the homography and the pose disagree by %.3g cm a quarter frame from the centre", ErrCorrupt, d)
		}
	}
	return nil
}

func finite(vs []float64) bool {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// CheckFrame reports an ErrMismatch when frames of w x h pixels are not
// those the calibration was made for.
func (c *Calibration) CheckFrame(w, h int) error {
	if c.Lens.Width != w || c.Lens.Height != h {
		return fmt.Errorf("%w: the calibration is for %dx%d frames, this frame is %dx%d; calibrate again for this camera mode",
			ErrMismatch, c.Lens.Width, c.Lens.Height, w, h)
	}
	return nil
}

// TableCentre returns the table point seen at the centre of the frame.
func (c *Calibration) TableCentre() (models.TablePoint, error) {
	return c.TableFromImage(float64(c.Lens.Width)/2, float64(c.Lens.Height)/2, 0)
}
