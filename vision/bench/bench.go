package bench

import (
	"errors"
	"fmt"
	"image"
	"time"

	"tableref/calibration"
	"tableref/models"
	"tableref/vision/synth"
)

// Detector finds the disks and tokens in a photograph of the table and
// returns them as a layout in the table frame of its calibration (x, y, r
// in cm, z, px, py, pr, rim; each token's touches).
type Detector interface {
	Detect(img image.Image) (models.Layout, error)
}

// Stage is the time a detector spent on one step of its pipeline.
type Stage struct {
	Name string
	Took time.Duration
}

// Staged is implemented by detectors that time their stages; the harness
// reads LastStages after each Detect.
type Staged interface {
	LastStages() []Stage
}

// NewDetector makes a detector for frames seen through cal. A detector
// with resources to free may also implement io.Closer.
type NewDetector func(cal *calibration.Calibration) (Detector, error)

// Config says what to run. The zero value runs 5 scenes of each tier at
// 1920x1080 without a detector.
type Config struct {
	Tiers  []synth.Tier
	Scenes int    // scenes per tier
	Seed   uint64 // seed of the first scene; scene k uses Seed+k
	Width  int
	Height int
	// Detector, when set, is run on every photograph.
	Detector NewDetector
	// Decoder names how each photograph's JPEG is decoded for the
	// detector, and Decode does it; nil is Go's image/jpeg (as
	// synth.Scene.Render decodes), named "go".
	Decoder string
	Decode  func(jpeg []byte) (image.Image, error)
	// Lamp, when not zero, lights every scene from that many degrees
	// above the horizon (see synth.Options.Lamp).
	Lamp float64
	// TableCm is the side of the square of table over which calibration
	// errors are measured (default 90).
	TableCm float64
	// Progress, when set, is called before each scene.
	Progress func(tier synth.Tier, scene, of int)
}

// SceneOptions are the options each scene is generated with.
func (c Config) SceneOptions() synth.Options {
	return synth.Options{Width: c.Width, Height: c.Height, Lamp: c.Lamp}
}

// decoderName is the name of the JPEG decoder the report states.
func (c Config) decoderName() string {
	switch {
	case c.Decoder != "":
		return c.Decoder
	case c.Decode != nil:
		return "custom"
	}
	return "go"
}

// photograph renders scene sc's photograph and decodes it as configured.
func (c Config) photograph(sc *synth.Scene) (image.Image, error) {
	if c.Decode == nil {
		return sc.Render()
	}
	b, err := sc.JPEG()
	if err != nil {
		return nil, err
	}
	return c.Decode(b)
}

func (c Config) withDefaults() Config {
	if len(c.Tiers) == 0 {
		c.Tiers = synth.Tiers
	}
	if c.Scenes == 0 {
		c.Scenes = 5
	}
	if c.Width == 0 || c.Height == 0 {
		c.Width, c.Height = 1920, 1080
	}
	if c.TableCm == 0 {
		c.TableCm = 90
	}
	return c
}

// Run renders the scenes and measures. It fails only on a broken set-up
// (a tier that does not exist, a detector that cannot be made); a board
// that is not found or a frame the detector refuses is counted in the
// report.
func Run(cfg Config) (Report, error) {
	cfg = cfg.withDefaults()
	if cfg.Scenes < 0 {
		return Report{}, errors.New("bench: a negative number of scenes")
	}
	rep := Report{Width: cfg.Width, Height: cfg.Height, Scenes: cfg.Scenes, TableCm: cfg.TableCm, Detection: cfg.Detector != nil, Decoder: cfg.decoderName(), Lamp: cfg.Lamp}
	for _, tier := range cfg.Tiers {
		tr, err := runTier(cfg, tier)
		if err != nil {
			return Report{}, err
		}
		rep.Tiers = append(rep.Tiers, tr)
	}
	return rep, nil
}

// tierRun gathers the raw measurements of a tier.
type tierRun struct {
	planeErrs  []float64
	boardFails int
	det        detectionTally
}

func runTier(cfg Config, tier synth.Tier) (TierReport, error) {
	var run tierRun
	for k := range cfg.Scenes {
		if cfg.Progress != nil {
			cfg.Progress(tier, k, cfg.Scenes)
		}
		sc, err := synth.Generate(cfg.Seed+uint64(k), tier, cfg.SceneOptions())
		if err != nil {
			return TierReport{}, fmt.Errorf("bench: %w", err)
		}
		cal, err := calibratePlane(sc)
		if err != nil {
			run.boardFails++
			continue
		}
		run.planeErrs = append(run.planeErrs, synth.PlaneErrors(sc, cal, cfg.TableCm, 2)...)
		if cfg.Detector != nil {
			if err := run.det.measure(cfg, sc, cal); err != nil {
				return TierReport{}, err
			}
		}
	}
	return run.report(tier, cfg), nil
}

// calibratePlane finds the board in the scene's board view and fits the
// table plane, with the scene's lens (the lens calibration is measured on
// OpenCV's photographs, see calibration's tests).
func calibratePlane(sc *synth.Scene) (*calibration.Calibration, error) {
	view := sc.RenderBoard()
	g := calibration.GrayFromImage(view)
	corners, err := calibration.FindCorners(g, sc.Board)
	if err != nil {
		return nil, err
	}
	cal, err := calibration.FromBoard(calibration.Lens{Camera: sc.Camera, Source: calibration.SourceSynthetic}, sc.Board, corners)
	if err != nil {
		return nil, err
	}
	cal.Quality.BoardWhite = calibration.BoardWhite(g, sc.Board, corners)
	cal.Quality.BoardWhiteRGB = calibration.BoardWhiteRGB(calibration.ChannelsFromImage(view), sc.Board, corners)
	return cal, nil
}
