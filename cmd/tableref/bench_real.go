package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"gocv.io/x/gocv"

	"tableref/vision"
	"tableref/vision/bench"
)

// realDataRel is where the real photographs live, relative to a folder
// above the working directory.
const realDataRel = "shared/realdata/circle-dataset-mini"

// realExcluded are the photographs whose ground truth does not line up
// with the stored image (the data set's FORMAT.md, "Known problems").
var realExcluded = []string{"sb", "speaker"}

// realMinIoU is the area overlap at which a detection matches a true
// circle, as in the papers that use the data set.
const realMinIoU = 0.8

// findRealData looks for shared/realdata/circle-dataset-mini beside or
// inside the repository the working directory dir belongs to: in every
// folder from dir up to the one holding go.mod, and in that folder's
// parent (where shared/ lies beside a clone). Outside a repository it looks
// in dir and its parent only, so that a stray folder far above is never
// taken for the data set.
func findRealData(dir string) (string, bool) {
	root := moduleRoot(dir)
	if root == "" {
		root = dir
	}
	stop := filepath.Dir(root)
	for {
		p := filepath.Join(dir, realDataRel)
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p, true
		}
		up := filepath.Dir(dir)
		if dir == stop || up == dir {
			return "", false
		}
		dir = up
	}
}

// moduleRoot returns the folder holding go.mod at or above dir, or "".
func moduleRoot(dir string) string {
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

// CircleScore is a detector's score on real photographs.
type CircleScore struct {
	Detected  int       `json:"detected"`
	Matched   int       `json:"matched"`
	Precision bench.Num `json:"precision"`
	Recall    bench.Num `json:"recall"`
	F         bench.Num `json:"f"`
	MS        bench.Num `json:"ms"`
}

func circleScore(s vision.Score, took time.Duration) CircleScore {
	return CircleScore{Detected: s.Detected, Matched: s.Matched, Precision: bench.Num(s.Precision),
		Recall: bench.Num(s.Recall), F: bench.Num(s.F), MS: bench.Num(float64(took.Microseconds()) / 1000)}
}

// RealImage is the score on one photograph.
type RealImage struct {
	Name     string      `json:"name"`
	Width    int         `json:"width"`
	Height   int         `json:"height"`
	Truth    int         `json:"outer_circles"`
	Detector CircleScore `json:"detector"`
	Hough    CircleScore `json:"hough"`
}

// RealReport scores the detector and HoughCircles on the real
// photographs of the circle data set, against the outer circles of the
// ground truth (a disk detector reports outer rims), at an area IoU of at
// least MinIoU. DetectorAll and HoughAll score the same detections
// against every annotated circle, inner rings and rims' inner edges
// included, as the data set's papers and its FORMAT.md baselines do:
// the figures to set beside those.
type RealReport struct {
	Dir      string      `json:"dir"`
	Found    bool        `json:"found"`
	Note     string      `json:"note,omitempty"`
	MinIoU   float64     `json:"min_iou"`
	Excluded []string    `json:"excluded"`
	Images   []RealImage `json:"images"`
	Detector CircleScore `json:"detector_overall"`
	Hough    CircleScore `json:"hough_overall"`
	// AllTruth is the number of annotated circles, all of them.
	AllTruth    int         `json:"all_circles"`
	DetectorAll CircleScore `json:"detector_overall_all_circles"`
	HoughAll    CircleScore `json:"hough_overall_all_circles"`
	Method      string      `json:"hough_method"`
}

// realNotFound is the report when the data set is missing.
func realNotFound(note string) *RealReport {
	return &RealReport{Note: note, MinIoU: realMinIoU, Excluded: realExcluded}
}

// runRealData scores both detectors on every photograph of dir that has
// a ground-truth file, but the excluded ones.
func runRealData(dir string) (*RealReport, error) {
	names, err := realImages(dir)
	if err != nil {
		return nil, err
	}
	rep := &RealReport{Dir: dir, Found: true, MinIoU: realMinIoU, Excluded: realExcluded,
		Method: "HoughCircles HOUGH_GRADIENT_ALT dp 1.5 minDist 10 p1 300 p2 0.8 minR 5, median blur 5"}
	det := vision.NewDetector(vision.Options{})
	defer det.Close()
	var detAll, houghAll, detEvery, houghEvery vision.Score
	var detTook, houghTook time.Duration
	for _, name := range names {
		img, ds, hs, err := scoreRealImage(det, dir, name)
		if err != nil {
			return nil, err
		}
		rep.Images = append(rep.Images, img)
		detAll, houghAll = detAll.Add(ds.score), houghAll.Add(hs.score)
		detEvery, houghEvery = detEvery.Add(ds.all), houghEvery.Add(hs.all)
		detTook += ds.took
		houghTook += hs.took
	}
	n := time.Duration(max(len(names), 1))
	rep.Detector, rep.Hough = circleScore(detAll, detTook/n), circleScore(houghAll, houghTook/n)
	rep.AllTruth = detEvery.Truth
	rep.DetectorAll, rep.HoughAll = circleScore(detEvery, detTook/n), circleScore(houghEvery, houghTook/n)
	return rep, nil
}

// realImages lists the photographs with a ground truth, by base name.
func realImages(dir string) ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(dir, "images"))
	if err != nil {
		return nil, fmt.Errorf("real photographs: %w", err)
	}
	var names []string
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), filepath.Ext(e.Name()))
		if e.IsDir() || !vision.IsImageFile(e.Name()) || slices.Contains(realExcluded, name) {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, "gt", name+".txt")); err == nil {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("real photographs: no image with a ground truth in %s (images/NAME.png with gt/NAME.txt)", dir)
	}
	return names, nil
}

// timedScore is a detector's score on one photograph against its outer
// circles (score) and against every annotated circle (all).
type timedScore struct {
	score, all vision.Score
	took       time.Duration
}

// scoreRealImage runs both detectors on one photograph.
func scoreRealImage(det *vision.Detector, dir, file string) (RealImage, timedScore, timedScore, error) {
	name := strings.TrimSuffix(file, filepath.Ext(file))
	every, err := readCircleTruth(filepath.Join(dir, "gt", name+".txt"))
	if err != nil {
		return RealImage{}, timedScore{}, timedScore{}, err
	}
	truth := vision.OuterCircles(every)
	m := gocv.IMRead(filepath.Join(dir, "images", file), gocv.IMReadColor)
	defer m.Close()
	if m.Empty() {
		return RealImage{}, timedScore{}, timedScore{}, fmt.Errorf("real photographs: %s cannot be read as an image", file)
	}
	start := time.Now()
	res, err := det.Detect(m)
	ds := timedScore{took: time.Since(start)}
	if err != nil {
		return RealImage{}, timedScore{}, timedScore{}, fmt.Errorf("real photographs: %s: %w", file, err)
	}
	var found []vision.Circle
	for _, d := range res.Layout.Disks {
		if c, ok := circleOf(d); ok {
			found = append(found, c)
		}
	}
	ds.score, ds.all = vision.ScoreCircles(found, truth, realMinIoU), vision.ScoreCircles(found, every, realMinIoU)
	circles, took := houghCircles(m, readmeHough)
	hs := timedScore{score: vision.ScoreCircles(circles, truth, realMinIoU), all: vision.ScoreCircles(circles, every, realMinIoU), took: took}
	img := RealImage{Name: name, Width: m.Cols(), Height: m.Rows(), Truth: len(truth),
		Detector: circleScore(ds.score, ds.took), Hough: circleScore(hs.score, hs.took)}
	return img, ds, hs, nil
}

func readCircleTruth(path string) ([]vision.Circle, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("real photographs: %w", err)
	}
	defer f.Close()
	cs, err := vision.ParseCircleTruth(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return cs, nil
}
