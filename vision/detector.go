package vision

import (
	"errors"
	"fmt"
	"image"
	"math"
	"slices"
	"sync"
	"time"

	"gocv.io/x/gocv"

	"tableref/calibration"
	"tableref/models"
)

// Options configure a Detector. The zero value works on an ordinary table
// seen by an ordinary webcam: pixels only, default disk and token
// catalogues.
type Options struct {
	// Calibration maps the image to the table in centimetres. Nil: the
	// layout is in pixels only (x, y, r are left equal to px, py, pr and
	// the caller is warned).
	Calibration *calibration.Calibration
	// Disks is the catalogue of disk sizes; radii within SnapTolerance of
	// one are snapped to it. Nil: DefaultDiskCatalogue. Used only with a
	// calibration.
	Disks []DiskSize
	// SnapTolerance is the relative radius difference within which a
	// measured disk is snapped to a catalogue size (default 0.04).
	SnapTolerance float64
	// Thickness is the thickness of one disk, for the height of a stacked
	// disk's top face (default 0.2 cm).
	Thickness models.Centimetres
	// DetectWidth is the width at which edges are searched (default 960);
	// the outlines are then refined on the full frame.
	DetectWidth int
	// Tokens is the token catalogue, at most 64 kinds. Nil:
	// DefaultTokenCatalogue.
	Tokens []TokenKind
}

// DiskSize is one size of disk in the catalogue.
type DiskSize struct {
	Name   string             // "small creature", "spell", ...
	Kind   string             // models.KindCreature, KindSpell, KindTerrain
	Radius models.Centimetres // nominal radius
}

// DefaultDiskCatalogue lists the Diskwars disk sizes: creatures 44.5,
// 50.8, 63.5, 88.9 and about 104 mm across, spells about 25 mm, terrain
// 127 and 152.4 mm. Terrain of other sizes is found too (any disk larger
// than the largest creature).
var DefaultDiskCatalogue = []DiskSize{
	{"spell", models.KindSpell, 1.25},
	{"small creature", models.KindCreature, 2.225},
	{"creature", models.KindCreature, 2.54},
	{"large creature", models.KindCreature, 3.175},
	{"huge creature", models.KindCreature, 4.445},
	{"giant creature", models.KindCreature, 5.2},
	{"terrain", models.KindTerrain, 6.35},
	{"large terrain", models.KindTerrain, 7.62},
}

// Result is what the detector saw in one frame.
type Result struct {
	Layout models.Layout
	// Stages is the time taken by each stage, in pipeline order.
	Stages []Stage
	// Warnings are doubts about the frame (no calibration, a disk too
	// covered to measure well, ...).
	Warnings []string
}

// Stage is one timed step of the pipeline.
type Stage struct {
	Name string
	Took time.Duration
}

// minFrameSide is the smallest frame, each way, the detector looks at.
const minFrameSide = 32

// ErrBadFrame is wrapped by errors about a frame that cannot be read:
// empty, of an unknown pixel format, or of a size other than the
// calibration's.
var ErrBadFrame = errors.New("bad frame")

// Detector finds disks and tokens in frames. It keeps its work Mats
// between frames; it is not safe for concurrent use (one goroutine owns
// it). Close it when done.
type Detector struct {
	opt     Options
	colour  gocv.Mat // the frame in BGR when it comes in another format
	exposed gocv.Mat // the frame brightened for a dim camera (exposure.go)
	// denoised is a noisy frame smoothed for its colours (noisyColour);
	// edgeThr is by how much the last frame's edge thresholds were raised
	// for its noise (1: a quiet frame).
	denoised gocv.Mat
	edgeThr  float64
	// unstretched is, when stretched, the detection-size frame in Lab
	// with the contrast stretch undone (sharpness.go), for the chits'
	// colours (small, stretched, is for edges and the disks' steps).
	unstretched gocv.Mat
	stretched   bool
	small       gocv.Mat // the frame in Lab, at detection size
	channel     gocv.Mat
	blurred     gocv.Mat
	chEdges     gocv.Mat
	edges       gocv.Mat
	gx, gy      gocv.Mat
	// a photograph at a slant, without calibration (tilt.go)
	tiltIn, tiltGrey, tiltEdges, tiltFrame gocv.Mat
	// token finding
	tokMask, labels     gocv.Mat
	cut                 gocv.Mat   // a token mask less the edges
	noEdges             gocv.Mat   // where the edge map has no edge
	kindMasks           []gocv.Mat // each token kind's pixels, print closed
	rawMasks            []gocv.Mat // and as the colour table finds them
	colours             colourTable
	light               lightField // over the frame, read from its table
	blockLevels         []uint8    // the colour table's level by block of detection pixels
	coloursErr          error      // a catalogue the colour table cannot hold
	visited             []uint8
	gradX               []int16 // the strongest channel's gradient at each pixel
	gradY               []int16
	vote                voteScratch
	chainPts            []pt      // the edge chains' points on the table
	chainPx             []int32   // and their pixels
	sides               []segment // straight runs of the edge chains of a long chit's length
	roundSeeds          []circle  // circles of about a round chit's size, on the table
	seedsTried          []pt      // where fitRoundSeeds tried one kind
	crossings           []float64 // scratch of chitEnds
	normals             []edgeNormal
	settled             []sample  // a disk's samples, while settleOnSizes tries others
	bestSamples         []sample  // and the best it found
	beyondSamples       []sample  // a disk's samples, while settleOutward tries again
	beyondGaps          []float64 // stepsBeyond's scratch
	peaks               []peak    // this frame's probes' steps (refine), which samples keep slices of
	fitPts              []pt      // fitOne's scratch: a disk's outline points
	fitStrengths        []float64
	plane               *workPlane
	templates           []tokenTemplate // the token kinds', for tplPlane
	tplPlane            *workPlane
	patch               []byte        // a token's neighbourhood of the mask
	hidPatch            []byte        // and the pixels of it a disk hides
	cover               []uint8       // the disks' cover (see buildCover)
	queue               []int32       // flood fill's
	sampleIdx           []int         // a token template's samples in the patch
	outlinePx           []image.Point // a token outline's sample pixels under a cover
	regions, subRegions labeller      // token regions, and a kind's within one

	// The circles verify did not keep, this frame, and, while a disk
	// found under chits is judged, the chits lying across its outline
	// (ringColours does not read under them): see undertokens.go; while
	// art on top is judged, the disks lying on the one judged
	// (dropArtOnTop).
	rejected  []candidate
	chitsOver []circle
}

// NewDetector returns a detector with the given options.
func NewDetector(opt Options) *Detector {
	if opt.SnapTolerance == 0 {
		opt.SnapTolerance = 0.04
	}
	if opt.Thickness == 0 {
		opt.Thickness = 0.2
	}
	if opt.DetectWidth == 0 {
		opt.DetectWidth = 960
	}
	if opt.Disks == nil {
		opt.Disks = DefaultDiskCatalogue
	}
	if opt.Tokens == nil {
		opt.Tokens = DefaultTokenCatalogue
	}
	// The detector keeps its own copies: a caller may change its slices.
	opt.Disks, opt.Tokens = slices.Clone(opt.Disks), slices.Clone(opt.Tokens)
	d := &Detector{opt: opt}
	d.colours, d.coloursErr = newColourTable(opt.Tokens)
	for _, m := range d.mats() {
		*m = gocv.NewMat()
	}
	return d
}

func (d *Detector) mats() []*gocv.Mat {
	return []*gocv.Mat{&d.colour, &d.exposed, &d.denoised, &d.unstretched, &d.small, &d.channel, &d.blurred, &d.chEdges, &d.edges, &d.gx, &d.gy, &d.tiltIn, &d.tiltGrey, &d.tiltEdges, &d.tiltFrame,
		&d.tokMask, &d.labels, &d.cut, &d.noEdges, &d.regions.labels, &d.subRegions.labels}
}

// Close frees the detector's Mats.
func (d *Detector) Close() error {
	for _, m := range d.mats() {
		m.Close()
	}
	for _, m := range d.kindMasks {
		m.Close()
	}
	for _, m := range d.rawMasks {
		m.Close()
	}
	d.kindMasks, d.rawMasks = nil, nil
	return nil
}

// matSet returns a set of n work Mats: ms itself when it holds n,
// else ms closed and n new ones.
func matSet(ms []gocv.Mat, n int) []gocv.Mat {
	if len(ms) == n {
		return ms
	}
	for _, m := range ms {
		m.Close()
	}
	ms = make([]gocv.Mat, n)
	for i := range ms {
		ms[i] = gocv.NewMat()
	}
	return ms
}

// DetectImage runs the detector on a Go image.
func (d *Detector) DetectImage(img image.Image) (Result, error) {
	m, err := gocv.ImageToMatRGB(img)
	if err != nil {
		return Result{}, fmt.Errorf("%w: %v", ErrBadFrame, err)
	}
	defer m.Close()
	return d.Detect(m)
}

// Detect finds the disks and tokens in a BGR (or grey) frame. The frame
// is only read. Without a calibration, a photograph seen at a slant is
// detected stretched back to circles (tilt.go).
func (d *Detector) Detect(frame gocv.Mat) (Result, error) {
	if d.opt.Calibration != nil || d.coloursErr != nil || frame.Empty() || frame.Type()&7 != gocv.MatTypeCV8U ||
		frame.Cols() < minFrameSide || frame.Rows() < minFrameSide {
		return d.detect(frame)
	}
	start := time.Now()
	in := frame
	switch frame.Channels() {
	case 1:
		gocv.CvtColor(frame, &d.tiltIn, gocv.ColorGrayToBGR)
		in = d.tiltIn
	case 4:
		gocv.CvtColor(frame, &d.tiltIn, gocv.ColorBGRAToBGR)
		in = d.tiltIn
	case 3:
	default:
		return d.detect(frame)
	}
	t, ok := findTilt(in, &d.tiltGrey, &d.tiltEdges)
	if !ok {
		return d.detect(frame)
	}
	st := newStretch(t, in.Cols(), in.Rows())
	if aspect := float64(st.size.X) / float64(st.size.Y); aspect > 20 || aspect < 1.0/20 || st.apply(in, &d.tiltFrame) != nil {
		return d.detect(frame)
	}
	took := time.Since(start)
	res, err := d.detect(d.tiltFrame)
	if err != nil {
		return d.detect(frame)
	}
	st.mapBack(&res.Layout)
	res.Stages = append([]Stage{{"tilt", took}}, res.Stages...)
	res.Warnings = append(res.Warnings, fmt.Sprintf("seen at a slant: the disks are ellipses of axis ratio %.2f, long axis at %.0f degrees; detected on the photograph stretched back to circles (px, py: in the photograph; pr: the long half axis; x, y, r: on the photograph seen square on)", t.ratio, t.phi*180/math.Pi))
	return res, nil
}

// detect is Detect on the frame as it is.
func (d *Detector) detect(frame gocv.Mat) (Result, error) {
	if d.coloursErr != nil {
		return Result{}, d.coloursErr
	}
	if frame.Empty() {
		return Result{}, fmt.Errorf("%w: the frame is empty", ErrBadFrame)
	}
	w, h := frame.Cols(), frame.Rows()
	if c := d.opt.Calibration; c != nil {
		if err := c.CheckFrame(w, h); err != nil {
			return Result{}, fmt.Errorf("%w: %v", ErrBadFrame, err)
		}
	}
	var res Result
	clock := time.Now()
	lap := func(name string) {
		now := time.Now()
		res.Stages = append(res.Stages, Stage{name, now.Sub(clock)})
		clock = now
	}
	if w < minFrameSide || h < minFrameSide {
		return Result{}, fmt.Errorf("%w: %dx%d pixels is too small (at least %d each way)", ErrBadFrame, w, h, minFrameSide)
	}
	if aspect := float64(w) / float64(h); aspect > 20 || aspect < 1.0/20 {
		return Result{}, fmt.Errorf("%w: %dx%d pixels is not a camera frame", ErrBadFrame, w, h)
	}
	if frame.Type()&7 != gocv.MatTypeCV8U {
		return Result{}, fmt.Errorf("%w: %d-channel frame of another depth than 8 bits a channel", ErrBadFrame, frame.Channels())
	}
	// The frame in BGR: itself when it is (read, never copied), else
	// converted into the detector's own Mat.
	src := frame
	switch frame.Channels() {
	case 3:
		if !frame.IsContinuous() {
			frame.CopyTo(&d.colour)
			src = d.colour
		}
	case 4:
		gocv.CvtColor(frame, &d.colour, gocv.ColorBGRAToBGR)
		src = d.colour
	case 1:
		gocv.CvtColor(frame, &d.colour, gocv.ColorGrayToBGR)
		src = d.colour
	default:
		return Result{}, fmt.Errorf("%w: %d channels; want 1, 3 or 4", ErrBadFrame, frame.Channels())
	}
	if frame.Channels() == 1 || greyPixels(src) {
		res.Warnings = append(res.Warnings, greyFrameWarning)
	}
	if gains, ok := frameGains(d.opt.Calibration); ok {
		applyGains(src, &d.exposed, gains)
		src = d.exposed
		res.Warnings = append(res.Warnings, exposureWarning(d.opt.Calibration, gains))
	}
	bgr, err := src.DataPtrUint8()
	if err != nil {
		return Result{}, fmt.Errorf("%w: %v", ErrBadFrame, err)
	}
	scale := d.edgeStage(src, w, h)
	lap("edges")

	sw, sh := d.small.Cols(), d.small.Rows()
	if d.plane == nil || !d.plane.fits(sw, sh, scale, d.opt.Calibration) {
		p, err := sharedWorkPlane(sw, sh, scale, d.opt.Calibration)
		if err != nil {
			return Result{}, fmt.Errorf("%w: %v", ErrBadFrame, err)
		}
		d.plane = p
	}
	lab, err := d.small.DataPtrUint8()
	if err != nil {
		return Result{}, fmt.Errorf("%w: %v", ErrBadFrame, err)
	}
	em := edgeMap{pix: d.edges.ToBytes(), gx: d.gradX, gy: d.gradY, lab: lab, w: sw, h: sh}
	if len(d.visited) != sw*sh {
		d.visited = make([]uint8, sw*sh)
	}
	chains, pxs := linkEdges(em, 8, d.visited, d.chainPx)
	d.chainPx = pxs
	cands := d.findDisks(chains, em)
	lap("disks")

	if d.edgeThr > 1 {
		// A noisy frame's colours are read smoothed (noisyColourKernel).
		gocv.GaussianBlur(src, &d.denoised, image.Pt(noisyColourKernel, noisyColourKernel), 0, 0, gocv.BorderReplicate)
		if bgr, err = d.denoised.DataPtrUint8(); err != nil {
			return Result{}, fmt.Errorf("%w: %v", ErrBadFrame, err)
		}
	}
	colour := bgrImage{pix: bgr, w: w, h: h}
	// The last frame's steps are gone with its fits.
	d.peaks = d.peaks[:0]
	disks := d.refine(cands, colour)
	d.fitAlone(disks)
	d.settleStrays(disks, colour)
	lap("refine")
	// Measured again after each drop, the disks whose level and the
	// circles of the disks above them are unchanged keep their plane fits.
	planes := planeMemo{}
	above := d.measure(disks, planes)
	// Art first: a circle of art taken for a disk on top lifts the disk
	// it lies in, and so its neighbours' levels and sizes; hasRim then
	// reads rims at the right height.
	if d.dropArtOnTop(&disks, above, colour) {
		above = d.measure(disks, planes)
	}
	if d.dropArtWithin(&disks, colour) {
		above = d.measure(disks, planes)
	}
	if d.settleUndersized(disks, above, colour) {
		above = d.measure(disks, planes)
	}
	if d.settleOversized(disks, above, colour) {
		above = d.measure(disks, planes)
	}
	if d.dropImplausible(&disks) {
		above = d.measure(disks, planes)
	}
	lap("stacking")
	toks := d.findTokens(colour, disks)
	if d.dropTokenOutlines(&disks, toks, colour) {
		above = d.measure(disks, planes)
	}
	if more := d.disksUnderTokens(toks, disks, em, colour); len(more) > 0 {
		disks = append(disks, more...)
		above = d.measure(disks, planes)
		if d.dropNewArt(&disks, len(disks)-len(more), toks, colour) {
			above = d.measure(disks, planes)
		}
	}
	// Sizes last: what was dropped as art or a token's outline, and the
	// stacking order, were judged on the edges first found.
	d.settleOnSizes(disks, above, colour)
	res.Layout = d.layout(disks, above, colour)
	res.Layout.Tokens = d.tokenModels(toks, disks)
	dropNonFinite(&res.Layout)
	tokenTouches(&res.Layout)
	lap("tokens")
	if d.opt.Calibration == nil {
		res.Warnings = append(res.Warnings, "no calibration: positions are in pixels, not centimetres")
	}
	return res, nil
}

// findDisks turns chains of edge pixels into disk outlines in the working
// plane.
func (d *Detector) findDisks(chains []chain, em edgeMap) []candidate {
	pl := d.plane
	px := pl.pixel
	ap := d.arcParams()
	cp := circleParams{
		groupTol:      1.5 * px,
		groupShare:    0.02,
		minCoverage:   0.3,
		finalCoverage: 0.62,
		minSupport:    d.minSupport(),
		minR:          ap.minR,
		maxR:          ap.maxR,
		pixel:         px,
		dropInside:    pl.cal == nil,
		snap:          func(c circle) (circle, float64, bool) { return pl.snapToEdges(c, em) },
		shadow:        func(c circle, casters []circle) bool { return pl.shadowBeside(c, em, casters) },
	}
	// A circle is often judged twice in a row (verify looks again at one
	// failing against the disks kept): its outline in the image is mapped
	// once.
	var last circle
	var lastImg imageOutline
	seen := func(c circle, others []circle) (float64, float64) {
		if c != last || c.R == 0 {
			last, lastImg = c, pl.outlineInImage(c)
		}
		return pl.coverageOf(c, &lastImg, em, others, coverageProbes(c, pl.pixel))
	}
	// With a calibration, the catalogue's sizes are found by voting, on
	// the other core while the arcs are traced; arcs add terrain, which
	// comes in any size.
	var voted []candidate
	var wg sync.WaitGroup
	if pl.cal != nil {
		largest := d.largestCreature()
		cp.seedOK = func(a arc) bool { return a.c.R > 1.1*largest && a.span >= 30*math.Pi/180 }
		wg.Add(1)
		go func() {
			defer wg.Done()
			voted = d.voteCatalogue(em, cp.minCoverage, cp.finalCoverage)
		}()
	}
	var arcs []arc
	// Every chain's points in one buffer, which the arcs keep slices of
	// until the next frame.
	total := 0
	for _, ch := range chains {
		total += len(ch.px)
	}
	pts := slices.Grow(d.chainPts[:0], total)
	// The straight runs of a long chit's length, for the tokens.
	d.sides = d.sides[:0]
	if pl.cal != nil {
		for _, k := range d.opt.Tokens {
			if k.Shape == "long" {
				if ap.sides == nil {
					ap.sides, ap.sideMin = &d.sides, math.Inf(1)
				}
				ap.sideMin, ap.sideMax = min(ap.sideMin, tokenSideShortest*k.Length), max(ap.sideMax, tokenSideLongest*k.Length)
			}
		}
	}
	for _, ch := range chains {
		start := len(pts)
		pts = pl.chainPoints(ch, pts)
		arcs = findArcs(pts[start:len(pts):len(pts)], ap, arcs)
	}
	d.chainPts = pts
	cands := groupArcs(arcs, cp, seen)
	if pl.cal != nil {
		cands = d.plausible(cands)
		for i := range cands {
			cands[i].sized = d.catalogueSize(cands[i].c.R)
		}
	}
	wg.Wait()
	cands = append(cands, voted...)
	d.keepRoundSeeds(cands)
	inside := func(c, k circle, others []circle) (int, int) { return pl.insideOf(c, k, others, em) }
	d.rejected = d.rejected[:0]
	if pl.cal != nil {
		cp.dropped = &d.rejected
	}
	return verify(suppress(cands, cp.dropInside), cp, seen, inside)
}

// voteSlack holds the radii, as shares of a catalogue size, at which
// voteCatalogue looks again at a peak seen too little at that size. On 240
// rendered tables it found 3 disks more and 3 phantoms fewer (a small
// disk's larger neighbour size no longer taken for it); 0.94 or 1.18 as
// well changed nothing more.
var voteSlack = [...]float64{1.06, 1.12}

// voteShrink is the radius, as a share of a catalogue size, at which
// voteCatalogue looks again at a peak not seen well enough to be kept at
// that size (nor at the slack's): a disk whose rim is of the table's
// colour, or whose outline is drawn faintly, shows the edge of its face a
// rim's width inside its outline, and the vote still peaks at its centre.
// Taken only when seen there well enough to be kept (finalCoverage), and
// tried after the slack's larger looks, which a smaller size's peak would
// otherwise take on a larger disk's face. On tables drawn by another
// renderer (TestPlainTablesOfAnotherRenderer) 179 of 185 disks and no
// phantom, against 176 and one; on synth's 40 scenes a tier, medium disk
// F1 0.990 either way (edge-to-edge p95 1.12 mm against 1.13), hard 0.944
// against 0.945 (p95 4.9 mm against 5.1). Looked at 0.94 as well, 2
// phantoms more on synth's medium seeds 1-24.
const voteShrink = 0.97

// minSupport is how much of a circle's outline, detection pixels, must
// be seen for it to be kept: 50 frame pixels.
func (d *Detector) minSupport() float64 { return 50 / d.plane.scale }

// voteCatalogue finds the circles of the catalogue's sizes by voting and
// keeps those seen well enough to be candidates. A peak's circle seen too
// little at its size, at the quick look or the full one, is looked at a
// little larger too (voteSlack): a disk's shadow on the ground, a dark
// rim's blur or, far from a tilted camera, its side moves its edge
// outwards by a pixel or two, a tenth of a small disk's radius; the vote
// still peaks at its centre, and refine measures it on its own steps. A
// peak seen too little to be kept is looked at a little smaller as well
// (voteShrink): a disk whose outline is faint, inside it its face's edge.
func (d *Detector) voteCatalogue(em edgeMap, minCoverage, finalCoverage float64) []candidate {
	pl := d.plane
	d.normals = pl.tableNormals(em, d.normals)
	var radii []float64
	for _, s := range d.opt.Disks {
		if !slices.Contains(radii, float64(s.Radius)) {
			radii = append(radii, float64(s.Radius))
		}
	}
	var out []candidate
	for _, c := range pl.voteCircles(d.normals, radii, &d.vote) {
		// Seen at its size, else at the slack's: a quick look with few
		// probes first (most peaks are texture), then a full one.
		best, bestCov := c.c, -1.0
		for k := -1; k < len(voteSlack) && bestCov < minCoverage; k++ {
			cc := c.c
			if k >= 0 {
				cc.R *= voteSlack[k]
			}
			img := pl.outlineInImage(cc)
			if quick, _ := pl.coverageOf(cc, &img, em, nil, 32); quick < minCoverage-0.1 {
				continue
			}
			if cov, _ := pl.coverageOf(cc, &img, em, nil, coverageProbes(cc, pl.pixel)); cov > bestCov {
				best, bestCov = cc, cov
			}
		}
		// Not seen well enough to be kept, it is looked at a little
		// smaller (voteShrink), and taken so when seen well enough there.
		if bestCov < finalCoverage {
			cc := c.c
			cc.R *= voteShrink
			img := pl.outlineInImage(cc)
			if quick, _ := pl.coverageOf(cc, &img, em, nil, 32); quick >= finalCoverage-0.1 {
				if cov, _ := pl.coverageOf(cc, &img, em, nil, coverageProbes(cc, pl.pixel)); cov >= finalCoverage && cov > bestCov {
					best, bestCov = cc, cov
				}
			}
		}
		if bestCov >= minCoverage {
			c.c, c.coverage = best, bestCov
			out = append(out, c)
		}
	}
	return out
}

// plausible keeps the circles whose size is a catalogue size (within 12 %,
// before refinement) or larger than any creature (terrain).
func (d *Detector) plausible(cs []candidate) []candidate {
	var out []candidate
	for _, c := range cs {
		if d.plausibleRadius(c.c.R) {
			out = append(out, c)
		}
	}
	return out
}

// plausibleRadius reports whether a disk of radius r (cm) may be in the
// catalogue: within 12 % of one of its sizes, or larger than any creature
// (terrain comes in any size).
func (d *Detector) plausibleRadius(r float64) bool {
	return d.withinSize(r, 0.12) || r > 1.05*d.largestCreature()
}

// catalogueSize reports whether r (cm) is one of the catalogue's sizes,
// within sizedShare.
func (d *Detector) catalogueSize(r float64) bool {
	return d.withinSize(r, sizedShare)
}

// withinSize reports whether r (cm) lies within share of one of the
// catalogue's sizes.
func (d *Detector) withinSize(r, share float64) bool {
	for _, s := range d.opt.Disks {
		if math.Abs(r-float64(s.Radius)) <= share*float64(s.Radius) {
			return true
		}
	}
	return false
}

// sizedShare is how near, as a share of the size, a circle's radius must
// be to a catalogue size to be of that size (catalogueSize).
const sizedShare = 0.02

// largestCreature is the radius of the largest disk of the catalogue that
// is not terrain, cm.
func (d *Detector) largestCreature() float64 {
	largest := 0.0
	for _, s := range d.opt.Disks {
		if s.Kind != models.KindTerrain {
			largest = max(largest, float64(s.Radius))
		}
	}
	return largest
}

// arcParams returns the arc finder's tolerances in working units.
func (d *Detector) arcParams() arcParams {
	pl := d.plane
	px := pl.pixel
	ap := arcParams{
		tol:          1.0 * px,
		minPts:       10,
		minR:         6 * px,
		maxR:         float64(max(pl.w, pl.h)) * px,
		maxRMS:       1.0 * px,
		rmsShare:     0.03,
		minTurn:      0.3 * math.Pi / 180,
		maxTurn:      70 * math.Pi / 180,
		minSpan:      12 * math.Pi / 180,
		maxPointStep: 3 * px,
	}
	if pl.cal != nil {
		ap.minR, ap.maxR = 0.8, 20
	}
	return ap
}

// edgeStage finds the edges of the frame at detection size, in colour: an
// edge of lightness (L) or of colour (a, b of Lab), so that a red rim on a
// mauve table is seen even where both are equally light. It keeps, for
// each pixel, the gradient of the channel where it is strongest. It
// returns the size of a detection pixel in frame pixels.
func (d *Detector) edgeStage(src gocv.Mat, w, h int) float64 {
	scale := 1.0
	thrScale := 0.0 // by how much the edge thresholds are raised; 0: not measured yet
	stretchGain := 1.0
	if w > d.opt.DetectWidth {
		scale = float64(w) / float64(d.opt.DetectWidth)
		sw, sh := d.opt.DetectWidth, max(8, int(math.Round(float64(h)/scale)))
		gocv.Resize(src, &d.blurred, image.Pt(sw, sh), 0, 0, gocv.InterpolationArea)
		scale = float64(w) / float64(sw)
	} else {
		src.CopyTo(&d.blurred)
	}
	// Without a calibration, a dim or flat photograph is stretched to a
	// camera's contrast, a blurred one detected smaller, where its edges
	// are sharp, and a small one larger (sharpness.go).
	if d.opt.Calibration == nil {
		// The stretch is for the edges; the chits' colours are read in
		// the frame as it is (a small vivid chit is what the stretch
		// clips), so it is kept, and resized as the frame is.
		stretchGain = stretchContrast(&d.blurred, &d.unstretched, &d.channel)
		if f := shrinkForSharpness(d.blurred, &d.channel); f > 1 {
			// One scale both ways (the work plane has one): the rows
			// kept are those the shrunk rows take at the columns' scale,
			// the last few (under f) left out.
			bw, bh := d.blurred.Cols(), d.blurred.Rows()
			sz := shrunkSize(bw, bh, f)
			k := float64(bw) / float64(sz.X)
			sz.Y = max(8, int(math.Floor(float64(bh)/k)))
			rows := min(bh, int(math.Round(float64(sz.Y)*k)))
			roi := d.blurred.Region(image.Rect(0, 0, bw, rows))
			gocv.Resize(roi, &d.chEdges, sz, 0, 0, gocv.InterpolationArea)
			roi.Close()
			d.blurred, d.chEdges = d.chEdges, d.blurred
			if stretchGain != 1 {
				roi := d.unstretched.Region(image.Rect(0, 0, bw, rows))
				gocv.Resize(roi, &d.chEdges, sz, 0, 0, gocv.InterpolationArea)
				roi.Close()
				d.unstretched, d.chEdges = d.chEdges, d.unstretched
			}
			scale = float64(w) / float64(sz.X)
		} else if min(d.blurred.Cols(), d.blurred.Rows()) < smallFrameSide {
			// A noisy one is not enlarged: interpolated, its noise turns
			// into blobs whose outlines pass for edges, and it measures
			// quieter than it is (sharpness.go, noiseQuiet).
			if thrScale = edgeThresholdScale(d.blurred, &d.channel); thrScale == 1 {
				sz := image.Pt(2*d.blurred.Cols(), 2*d.blurred.Rows())
				gocv.Resize(d.blurred, &d.chEdges, sz, 0, 0, gocv.InterpolationCubic)
				d.blurred, d.chEdges = d.chEdges, d.blurred
				if stretchGain != 1 {
					gocv.Resize(d.unstretched, &d.chEdges, sz, 0, 0, gocv.InterpolationCubic)
					d.unstretched, d.chEdges = d.chEdges, d.unstretched
				}
				scale = float64(w) / float64(sz.X)
			}
		}
	}
	// A noisy frame (a cheap camera in dim light) asks more of an edge
	// (sharpness.go).
	if thrScale == 0 {
		thrScale = edgeThresholdScale(d.blurred, &d.channel)
	}
	d.edgeThr = thrScale
	gocv.CvtColor(d.blurred, &d.small, gocv.ColorBGRToLab)
	n := d.small.Rows() * d.small.Cols()
	if len(d.gradX) != n {
		d.gradX, d.gradY = make([]int16, n), make([]int16, n)
	}
	for c := range 3 {
		gocv.ExtractChannel(d.small, &d.channel, c)
		gocv.GaussianBlur(d.channel, &d.blurred, image.Pt(5, 5), 0, 0, gocv.BorderReplicate)
		lo, hi := float32(20), float32(50)
		if c > 0 { // a and b span a narrower range than L
			lo, hi = 10, 25
		}
		lo, hi = lo*float32(thrScale), hi*float32(thrScale)
		gocv.Sobel(d.blurred, &d.gx, gocv.MatTypeCV16S, 1, 0, 3, 1, 0, gocv.BorderReplicate)
		gocv.Sobel(d.blurred, &d.gy, gocv.MatTypeCV16S, 0, 1, 3, 1, 0, gocv.BorderReplicate)
		// Canny of the channel, from the gradient just computed.
		if c == 0 {
			cannyGradient(d.gx, d.gy, &d.edges, lo, hi)
		} else {
			cannyGradient(d.gx, d.gy, &d.chEdges, lo, hi)
			gocv.BitwiseOr(d.edges, d.chEdges, &d.edges)
		}
		gx, err1 := d.gx.DataPtrInt16()
		gy, err2 := d.gy.DataPtrInt16()
		if err1 != nil || err2 != nil {
			if c == 0 {
				clear(d.gradX)
				clear(d.gradY)
			}
			continue
		}
		if c == 0 { // lightness first: its gradient is the one to beat
			copy(d.gradX, gx)
			copy(d.gradY, gy)
		} else {
			keepStrongest(d.gradX, d.gradY, gx, gy, true)
		}
	}
	d.stretched = stretchGain != 1
	if d.stretched {
		gocv.CvtColor(d.unstretched, &d.unstretched, gocv.ColorBGRToLab)
	}
	return scale
}

// measure reads the stacking order of the fits, on their circles fitted
// as if each lay alone, and fits each on the table plane at the height of
// its top face. It runs again whenever fits are dropped: a circle of art
// taken for a disk, while it stood, lifted the disks around it a level.
// memo (nil: none) keeps the plane fits from one measure to the next,
// while the fits' samples stay as they are (see fitPlane).
func (d *Detector) measure(fits []diskFit, memo planeMemo) [][]int {
	for i := range fits {
		fits[i].c, fits[i].rms, fits[i].level = fits[i].alone, fits[i].aloneRMS, 0
	}
	above := stackOrder(fits, d.plane)
	d.fitPlane(fits, above, memo)
	return above
}

// dropArtOnTop removes, with a calibration, the circles verified only on
// their own as lying on a disk (onTop) that look like its art: of no
// catalogue size, or with a rim no different from what lies around it (see
// rimStandsOut, and artOnTop). It reports whether it removed any.
//
// Its rim is not read where a disk lying on it (above, by index) hides
// it: a disk in the middle of a stack of three has its rim hidden there
// under the art of the one on top, which would read as no rim.
func (d *Detector) dropArtOnTop(fits *[]diskFit, above [][]int, colour bgrImage) bool {
	if d.plane.cal == nil {
		return false
	}
	all := circlesOf(*fits)
	kept := (*fits)[:0]
	n := len(*fits)
	for i, f := range *fits {
		d.chitsOver = d.chitsOver[:0]
		for _, j := range above[i] {
			d.chitsOver = append(d.chitsOver, all[j])
		}
		if !d.artOnTop(f, all, colour) {
			kept = append(kept, f)
		}
	}
	d.chitsOver = d.chitsOver[:0]
	*fits = kept
	return len(kept) < n
}

// circlesOf returns the circles of fits.
func circlesOf(fits []diskFit) []circle {
	cs := make([]circle, len(fits))
	for i, f := range fits {
		cs[i] = f.c
	}
	return cs
}

// artOnTop reports whether f, verified on its own as lying on a disk,
// looks like its art (see dropArtOnTop); all holds every disk's circle
// (f's own among them holds nothing just outside f). Art is printed on a
// disk and cannot reach past it: where f lies over the table its outline
// was judged by verify, and a rim of the table's own colour (a green rim
// on green baize) is no sign of art; its rim is judged where it lies on
// the other disks, when it does so for at least ringLeast samples.
func (d *Detector) artOnTop(f diskFit, all []circle, colour bgrImage) bool {
	if !f.onTop {
		return false
	}
	if !d.plausibleSize(f.c.R) {
		return true
	}
	if differs, n := d.rimDiffers(f, colour, all); n >= d.ringLeast() {
		return !rimStandsOutOf(differs, n)
	}
	return !d.rimStandsOut(f, colour)
}

// dropArtWithin removes, with a calibration, the circles lying wholly
// inside a disk that show no rim (see hasRim), or a rim no different from
// what lies around it (see rimStandsOut: a printed badge's dark ring on
// dark art), or whose radius is not within the snap tolerance of a
// catalogue size (a disk seen whole on another is measured that well; a
// circle of art may be of any size): its art. It reports whether it
// removed any. (A disk found under a chit, its outline partly hidden, is
// judged by artWithin alone: see dropNewArt.)
func (d *Detector) dropArtWithin(fits *[]diskFit, colour bgrImage) bool {
	return d.dropFits(fits, func(f diskFit) bool {
		return f.within && (!d.withinSize(f.c.R, d.opt.SnapTolerance) || d.artWithin(f, colour))
	})
}

// artWithin reports whether f, lying wholly inside a disk, looks like its
// art (see dropArtWithin).
func (d *Detector) artWithin(f diskFit, colour bgrImage) bool {
	return f.within && (!d.hasRim(f, colour) || !d.rimStandsOut(f, colour))
}

// dropImplausible removes, with a calibration, the disks whose measured
// radius matches no catalogue size (within twice the snap tolerance) and is
// too small for terrain (a round token, a circle of art). It reports
// whether it removed any.
func (d *Detector) dropImplausible(fits *[]diskFit) bool {
	return d.dropFits(fits, func(f diskFit) bool { return !d.plausibleSize(f.c.R) })
}

// dropFits removes, with a calibration, the fits that drop reports, and
// reports whether it removed any.
func (d *Detector) dropFits(fits *[]diskFit, drop func(diskFit) bool) bool {
	if d.plane.cal == nil {
		return false
	}
	n := len(*fits)
	*fits = slices.DeleteFunc(*fits, drop)
	return len(*fits) < n
}

// plausibleSize reports whether a measured radius, cm, matches a catalogue
// size (within twice the snap tolerance) or is large enough for terrain.
func (d *Detector) plausibleSize(r float64) bool {
	return r > 1.2*d.largestCreature() || d.withinSize(r, 2*d.opt.SnapTolerance)
}

// dropTokenOutlines removes, with a calibration, the circles that are a
// token's outline: a round chit, or the corners of a square or long one,
// drawn out by blur and by its side and shadow to about a spell's size.
// Such a circle is centred on a token found by its colour, its radius
// about the token's reach, and either matches no catalogue size or, if it
// does, shows no rim: just inside it lies what lies just outside it (the
// table around the chit's corners), where a real spell under the token
// shows its rim. It reports whether it removed any.
func (d *Detector) dropTokenOutlines(fits *[]diskFit, toks []*tokenShape, img bgrImage) bool {
	rim := func(f diskFit) bool { return d.rimStandsOut(f, img) }
	return len(toks) > 0 && d.dropFits(fits, func(f diskFit) bool { return d.tokenOutline(f, toks, rim) })
}

// tokenOutline reports whether fit f is a token's outline rather than a
// disk (see dropTokenOutlines); rim tells whether a fit shows a rim.
func (d *Detector) tokenOutline(f diskFit, toks []*tokenShape, rim func(diskFit) bool) bool {
	if f.c.R > 1.2*d.largestCreature() {
		return false
	}
	for _, t := range toks {
		if f.c.C.sub(t.centre).len() > tokenOutlineOffset*f.c.R || f.c.R < tokenOutlineLeast*t.reach() {
			continue
		}
		switch {
		case f.c.R <= tokenOutlineMost*t.reach():
			// A catalogue size, strictly: within the relative snap
			// tolerance (a token's outline measures a few pixels more
			// than a spell).
			s := d.nearestSize(models.Centimetres(f.c.R))
			return math.Abs(f.c.R-float64(s.Radius)) > d.opt.SnapTolerance*float64(s.Radius) || !rim(f)
		case f.c.R <= tokenOutlineFar*t.reach():
			// Drawn out further (a grey boulder's shadow on grey
			// tiles), it must show no rim.
			return !rim(f)
		}
	}
	return false
}

// A circle is a token's outline when its centre is within
// tokenOutlineOffset of its radius from the token's centre (its shadow
// draws it to one side), and its radius about the token's reach: from
// tokenOutlineLeast to tokenOutlineMost of it (blur, the chit's side and
// its shadow widen it), or to tokenOutlineFar of it if it shows no rim. A
// spell under a long chit, its radius well short of the chit's reach,
// stays.
const (
	tokenOutlineOffset = 0.35
	tokenOutlineLeast  = 0.9
	tokenOutlineMost   = 1.25
	tokenOutlineFar    = 1.3
)

// dropNonFinite removes any disk or token with a coordinate that is not a
// finite number (an extreme lens model can overflow): a layout must always
// load again.
func dropNonFinite(l *models.Layout) {
	l.Disks = slices.DeleteFunc(l.Disks, func(d models.Disk) bool {
		vs := []float64{float64(d.X), float64(d.Y), float64(d.R)}
		if d.Pixel != nil {
			vs = append(vs, d.Pixel.PX, d.Pixel.PY, d.Pixel.PR)
		}
		return !allFinite(vs)
	})
	l.Tokens = slices.DeleteFunc(l.Tokens, func(t models.Token) bool {
		vs := []float64{float64(t.X), float64(t.Y), float64(t.R)}
		if t.Pixel != nil {
			vs = append(vs, t.Pixel.PX, t.Pixel.PY, t.Pixel.PR)
		}
		for _, p := range t.Poly {
			vs = append(vs, float64(p.X), float64(p.Y))
		}
		return !allFinite(vs)
	})
}

func allFinite(vs []float64) bool {
	for _, v := range vs {
		if !finite(v) {
			return false
		}
	}
	return true
}
