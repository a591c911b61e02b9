package ui

import (
	"context"
	"fmt"
	"image"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"tableref/engine"
	"tableref/engine/rulesets"
	"tableref/models"
)

// Options configure the referee window. The zero value works: geometry
// rules, the engine's analyzer, no calibrator, corrections kept in memory.
type Options struct {
	// Title of the window ("tableref" when empty).
	Title string
	// Rules is the name of the ruleset selected at start.
	Rules string
	// Analyzer makes the rulings (EngineAnalyzer when nil).
	Analyzer Analyzer
	// Calibrator drives the calibration wizard; nil when no camera.
	Calibrator Calibrator
	// CorrectionsPath is the corrections file of the game: read at start,
	// written after every correction. Empty keeps corrections in memory.
	CorrectionsPath string
	// ArmyLists are loaded at start.
	ArmyLists []ArmyList
	// Uncertainty of a measured distance (DefaultUncertainty when zero).
	Uncertainty models.Centimetres
	// Settle configures the settle gate.
	Settle SettleGate
	// MaxFPS caps the displayed frame rate (30 when zero).
	MaxFPS float64
	// DisplayWidth and DisplayHeight bound the image shown; larger
	// frames are scaled down (1280 by 960 when zero).
	DisplayWidth, DisplayHeight int
	// Campaign is shown in the Campaign tab; nil: the tab says how to
	// start one.
	Campaign Campaign
}

// Ruling is one analysis of a settled table, kept with the frame it is
// based on.
type Ruling struct {
	Seq    int
	Frame  Frame
	Layout models.Layout
	Rules  string
	Report engine.Report
	Err    error
	// Thumb is the ruling's frame with its overlay.
	Thumb     image.Image
	Proposals []Proposal
}

// job is a request for a ruling.
type job struct {
	seq    int
	frame  Frame
	layout models.Layout
	rules  string
}

// UI is the referee window and its state. Exported methods are safe from
// any goroutine unless they say otherwise.
type UI struct {
	opts   Options
	app    fyne.App
	Window fyne.Window
	// sourceDone is closed when the source started by Run returns.
	sourceDone chan struct{}

	mu          sync.Mutex
	raw         *Frame
	frame       *Frame
	layout      models.Layout
	settled     bool
	ended       bool
	force       bool
	corr        Corrections
	gate        SettleGate
	rules       string
	bands       []models.Centimetres
	uncertainty models.Centimetres
	ruling      *Ruling
	analysed    *job
	rulingSeq   int
	selected    string
	selToken    string
	addMode     bool
	tracker     DamageTracker
	acts        Activations
	armies      []ArmyList
	palette     Palette
	// notice is the latest passing word to the player (a deletion, a
	// refused value); stopped and saveErr are kept apart from it so that
	// no later word hides them: stopped says why the source stopped (until
	// the end), saveErr why the corrections are not on disk (until a save
	// succeeds).
	notice  string
	stopped string
	saveErr string
	version int

	// tables holds the detected layout (before corrections) each ruling
	// was made from, for the current ruling and those with confirmed
	// entries, so that a table ruled again is recognised.
	tables map[int]models.Layout
	// lastAdded numbers the disks added by hand: added ids are never
	// reused, so nothing meant for a removed one reaches a new one.
	lastAdded int

	wake chan struct{}
	jobs chan job

	w    widgets        // UI goroutine only
	camp *campaignPanel // UI goroutine only
}

// New builds the referee window on the given app (test.NewApp() in
// tests). It must be called on the UI goroutine (or before the app runs).
// Call Run to play a source, then ShowAndRun on the window.
func New(app fyne.App, opts Options) (*UI, error) {
	if opts.Analyzer == nil {
		opts.Analyzer = EngineAnalyzer{}
	}
	if opts.Uncertainty <= 0 {
		opts.Uncertainty = DefaultUncertainty
	}
	if opts.MaxFPS <= 0 {
		opts.MaxFPS = 30
	}
	if opts.DisplayWidth <= 0 || opts.DisplayHeight <= 0 {
		opts.DisplayWidth, opts.DisplayHeight = 1280, 960
	}
	if opts.Title == "" {
		opts.Title = "tableref"
	}
	if _, err := rulesets.Lookup(opts.Rules); err != nil {
		return nil, err
	}
	corr := Corrections{Version: 1}
	if opts.CorrectionsPath != "" {
		c, err := LoadCorrections(opts.CorrectionsPath)
		if err != nil {
			return nil, err
		}
		corr = c
	}
	u := &UI{
		opts: opts, app: app, corr: corr, gate: opts.Settle,
		rules: rulesetName(opts.Rules), bands: BandsFor(opts.Rules), uncertainty: opts.Uncertainty,
		armies: append([]ArmyList(nil), opts.ArmyLists...),
		wake:   make(chan struct{}, 1), jobs: make(chan job, 1),
	}
	u.Window = app.NewWindow(opts.Title)
	u.Window.SetContent(u.build())
	u.Window.Canvas().SetOnTypedKey(u.typedKey)
	u.Window.Resize(fyne.NewSize(1500, 900))
	u.refreshPanels()
	return u, nil
}

func rulesetName(n string) string {
	if n == "" {
		return rulesets.Geometry
	}
	return n
}

// Feed hands a frame to the window; the latest frame wins.
func (u *UI) Feed(f Frame) {
	u.mu.Lock()
	u.raw = &f
	u.mu.Unlock()
	u.poke()
}

// poke wakes the display loop without blocking.
func (u *UI) poke() {
	select {
	case u.wake <- struct{}{}:
	default:
	}
}

// Run plays the source until ctx is done: the source on a goroutine of its
// own, analysis on another, and a display loop that hands each displayed
// frame to the window through one fyne.Do, at most MaxFPS a second, the
// latest frame winning. It returns at once; errors of the source are shown
// in the window.
func (u *UI) Run(ctx context.Context, src FrameSource) {
	go u.analysisLoop(ctx)
	go u.displayLoop(ctx)
	u.sourceDone = make(chan struct{})
	go func() {
		defer close(u.sourceDone)
		u.play(ctx, src)
	}()
}

// play runs the source until it returns, then records that it ended and
// why it stopped, if it did not end of itself. Off the UI goroutine.
func (u *UI) play(ctx context.Context, src FrameSource) {
	err := src.Run(ctx, u.Feed)
	u.mu.Lock()
	u.ended = true
	if err != nil && ctx.Err() == nil {
		u.stopped = "The source stopped: " + err.Error()
	}
	u.version++
	u.mu.Unlock()
	u.poke()
}

// WaitSource waits, at most timeout, for the source started by Run to
// return (after its context is cancelled), so that a camera is released
// only once nothing reads it. It reports whether the source returned.
func (u *UI) WaitSource(timeout time.Duration) bool {
	if u.sourceDone == nil {
		return true
	}
	select {
	case <-u.sourceDone:
		return true
	case <-time.After(timeout):
		return false
	}
}

// SourceEnded tells the window that no more frames will come, so the last
// one counts as settled (for Step-driven use).
func (u *UI) SourceEnded() {
	u.mu.Lock()
	u.ended = true
	u.mu.Unlock()
}

func (u *UI) displayLoop(ctx context.Context) {
	gap := time.Duration(float64(time.Second) / u.opts.MaxFPS)
	for {
		select {
		case <-ctx.Done():
			return
		case <-u.wake:
		}
		if j := u.ingest(); j != nil {
			u.submit(*j)
		}
		img, version := u.render()
		fyne.Do(func() { u.display(img, version) })
		select {
		case <-ctx.Done():
			return
		case <-time.After(gap):
		}
	}
}

// submit queues a job for the analysis goroutine, replacing one waiting.
func (u *UI) submit(j job) {
	for {
		select {
		case u.jobs <- j:
			return
		default:
		}
		select {
		case <-u.jobs:
		default:
		}
	}
}

func (u *UI) analysisLoop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case j := <-u.jobs:
			u.runJob(j)
			u.poke()
		}
	}
}

// Step ingests the latest frame, makes its ruling if one is due and shows
// the result, all before returning. For tests and single-step tools; it
// must not be called on the UI goroutine of a running app.
func (u *UI) Step() {
	if j := u.ingest(); j != nil {
		u.runJob(*j)
	}
	img, version := u.render()
	fyne.DoAndWait(func() { u.display(img, version) })
}

// ingest takes the latest frame (or re-applies corrections to the last
// one), feeds the settle gate and returns a job when a ruling is due.
func (u *UI) ingest() *job {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.raw != nil {
		f := FitForDisplay(*u.raw, u.opts.DisplayWidth, u.opts.DisplayHeight)
		if u.frame == nil || u.frame.Note != f.Note {
			u.version++
		}
		u.raw, u.frame = nil, &f
		u.applyCorrections()
		u.settled = u.gate.Observe(u.layout, f.Motion)
	} else if u.frame != nil && u.force {
		u.applyCorrections()
	}
	if u.frame == nil || !(u.settled || u.ended) {
		return nil
	}
	// The table last analysed, within the settle gate's tolerance, is the
	// same table (as for the tracker, sameTableLocked): a camera's jitter
	// of a millimetre makes no new ruling. Compared with the layout
	// analysed, not the previous frame, so a slow drift is ruled again.
	if a := u.analysed; !u.force && a != nil && a.rules == u.rules && SameLayout(a.layout, u.layout, u.gate.tolerance()) && sameState(a.layout, u.layout) {
		return nil
	}
	u.force = false
	u.rulingSeq++
	j := job{seq: u.rulingSeq, frame: *u.frame, layout: u.layout, rules: u.rules}
	u.analysed = &j
	return &j
}

// applyCorrections recomputes the corrected layout of the current frame;
// the caller holds mu.
func (u *UI) applyCorrections() {
	prev := u.layout
	u.layout, u.corr = u.corr.Apply(u.frame.Layout)
	if u.palette == nil {
		u.palette = NewPalette(u.layout)
	}
	for _, d := range u.layout.Disks {
		if _, ok := u.palette[d.Owner]; !ok && d.Owner != "" {
			u.palette = NewPalette(u.layout)
			break
		}
	}
	if !SameLayout(prev, u.layout, 0.05) || !sameState(prev, u.layout) {
		u.version++
	}
}

// sameState compares what SameLayout does not: stats, keywords, sides.
func sameState(a, b models.Layout) bool {
	ib := b.DiskIndex()
	for _, d := range a.Disks {
		j, ok := ib[d.ID]
		if !ok {
			return false
		}
		e := b.Disks[j]
		if d.Side != e.Side || d.Kind != e.Kind || fmt.Sprint(d.Stats) != fmt.Sprint(e.Stats) || fmt.Sprint(d.Keywords) != fmt.Sprint(e.Keywords) {
			return false
		}
	}
	return true
}

// runJob makes a ruling; off the UI goroutine, without holding mu while
// the analyzer runs.
func (u *UI) runJob(j job) {
	rep, err := u.opts.Analyzer.Analyze(j.layout, j.rules)
	r := &Ruling{Seq: j.seq, Frame: j.frame, Layout: j.layout, Rules: j.rules, Report: rep, Err: err}
	ov := Overlay{Layout: j.layout, Palette: u.paletteCopy()}
	if err == nil {
		ov.Report = &r.Report
	}
	r.Thumb = DrawOverlay(j.frame.Image, ov)
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.ruling != nil && u.ruling.Seq > j.seq {
		return
	}
	if err == nil {
		r.Proposals = Proposals(j.seq, rep, j.layout, &u.tracker, u.sameTableLocked(j.frame.Layout))
		u.acts.Observe(rep, j.layout)
	}
	u.ruling = r
	u.keepTablesLocked(j)
	u.version++
}

// sameTableLocked returns the predicate Proposals uses to recognise the
// earlier rulings made on the table detected as l: the same disks and
// tokens, none moved by more than the settle gate's tolerance. The
// detected layout is compared, not the corrected one, because a
// correction changes what the rules read, not the table; so a table ruled
// again after a correction or a change of rules, or seen again in a later
// frame that jitters, replaces what was confirmed from it rather than
// adding to it. The caller holds mu, as long as the predicate is used.
func (u *UI) sameTableLocked(l models.Layout) func(ruling int) bool {
	tol := u.gate.tolerance()
	return func(ruling int) bool {
		t, ok := u.tables[ruling]
		return ok && SameLayout(t, l, tol)
	}
}

// keepTablesLocked records the detected layout of ruling j and forgets
// those of rulings that can no longer matter: neither the current ruling
// nor in the tracker's history. The caller holds mu.
func (u *UI) keepTablesLocked(j job) {
	if u.tables == nil {
		u.tables = map[int]models.Layout{}
	}
	u.tables[j.seq] = j.frame.Layout
	used := map[int]bool{u.ruling.Seq: true}
	for _, e := range u.tracker.history {
		used[e.Ruling] = true
	}
	for seq := range u.tables {
		if !used[seq] {
			delete(u.tables, seq)
		}
	}
}

func (u *UI) paletteCopy() Palette {
	u.mu.Lock()
	defer u.mu.Unlock()
	p := Palette{}
	for k, v := range u.palette {
		p[k] = v
	}
	return p
}

// render draws the current frame with its overlay, off the UI goroutine.
func (u *UI) render() (image.Image, int) {
	u.mu.Lock()
	if u.frame == nil {
		v := u.version
		u.mu.Unlock()
		return nil, v
	}
	ov := Overlay{Layout: u.layout, Selected: u.selected, Bands: u.bands, Uncertainty: u.uncertainty,
		Palette: u.palette, Counters: u.countersLocked()}
	if u.ruling != nil && u.ruling.Err == nil {
		ov.Report = &u.ruling.Report
	}
	if u.layout.Units == models.UnitsPixels {
		// No calibration: rings in cm cannot be drawn (see rangesPanel).
		ov.Bands, ov.Uncertainty = nil, 0
	}
	img, v := u.frame.Image, u.version
	u.mu.Unlock()
	return DrawOverlay(img, ov), v
}

// countersLocked returns the overlay counters; the caller holds mu.
func (u *UI) countersLocked() map[string]Counter {
	out := map[string]Counter{}
	pending := map[string]Tally{}
	if u.ruling != nil {
		for _, p := range u.ruling.Proposals {
			if !u.tracker.Confirmed(p) {
				pending[p.Disk] = p.After
			}
		}
	}
	for _, d := range u.layout.Disks {
		t, ok := u.tracker.Tally(d.ID)
		if !ok {
			t = Tally{Damage: d.Damage, Wounds: d.WoundsTaken}
		}
		p, ok := pending[d.ID]
		out[d.ID] = Counter{Damage: t.Damage, Wounds: t.Wounds, Pending: ok, Proposed: p}
	}
	return out
}

// display shows a rendered frame and, when the state changed, rebuilds
// the panels. UI goroutine only.
func (u *UI) display(img image.Image, version int) {
	if img != nil {
		u.w.view.show(img)
	}
	if version != u.w.shown {
		u.refreshPanels()
	}
}

// changed records a change made by the player: the panels and overlay are
// redrawn and, when rulings depend on it, a new ruling is made. The caller
// holds mu.
func (u *UI) changedLocked(reanalyse bool) {
	u.version++
	if reanalyse {
		u.force = true
	}
}

// saveCorrectionsLocked writes the corrections file; the caller holds mu.
func (u *UI) saveCorrectionsLocked() {
	if u.opts.CorrectionsPath == "" {
		return
	}
	if err := u.corr.Save(u.opts.CorrectionsPath); err != nil {
		u.saveErr = "NOT SAVED: " + err.Error()
	} else {
		u.saveErr = ""
	}
}

// build lays the window out: the live view on the left, the panels on
// the right, the toolbar above.
func (u *UI) build() fyne.CanvasObject {
	u.w.view = newLiveView(u.tapped)
	u.w.status = widget.NewLabel("Waiting for the first frame…")
	u.w.status.Truncation = fyne.TextTruncateEllipsis
	u.w.unc = widget.NewEntry()
	u.w.unc.OnSubmitted = u.setUncertainty
	u.w.uncShown = -1
	u.w.rules = widget.NewSelect(rulesets.Names(), u.setRules)
	u.w.rules.SetSelected(u.rules)
	u.w.rulings = container.NewVBox()
	u.w.ranges = container.NewVBox()
	u.w.damage = container.NewVBox()
	u.w.activation = container.NewVBox()
	u.w.correct = container.NewVBox()
	u.w.tabs = container.NewAppTabs(
		container.NewTabItem("Rulings", container.NewVScroll(u.w.rulings)),
		container.NewTabItem("Ranges", container.NewVScroll(u.w.ranges)),
		container.NewTabItem("Damage", container.NewVScroll(u.w.damage)),
		container.NewTabItem("Activation", container.NewVScroll(u.w.activation)),
		container.NewTabItem("Correct", container.NewVScroll(u.w.correct)),
		container.NewTabItem("Calibrate", container.NewVScroll(u.calibrationPanel())),
		container.NewTabItem("Campaign", u.campaignTab()),
	)
	armyButton := widget.NewButton("Load army list…", u.openArmyList)
	addButton := widget.NewButton("Add missed disk", u.startAdd)
	bar := container.NewHBox(widget.NewLabel("Rules:"), u.w.rules, armyButton, addButton)
	top := container.NewBorder(nil, nil, bar, nil, u.w.status)
	split := container.NewHSplit(u.w.view, u.w.tabs)
	split.Offset = 0.62
	return container.NewBorder(top, nil, nil, nil, split)
}

// setRules selects a ruleset. UI goroutine.
func (u *UI) setRules(name string) {
	u.mu.Lock()
	if name == u.rules {
		u.mu.Unlock()
		return
	}
	u.rules, u.bands = name, BandsFor(name)
	u.changedLocked(true)
	u.mu.Unlock()
	u.poke()
}

// tapped handles a tap on the live view at an image pixel. UI goroutine.
func (u *UI) tapped(at Pixel) {
	u.mu.Lock()
	if u.frame == nil {
		u.mu.Unlock()
		return
	}
	b := u.frame.Image.Bounds()
	if u.addMode {
		u.addMode = false
		if p, ok := ToTable(u.layout, b, at); ok {
			u.addDiskLocked(p)
		}
	} else {
		id, isToken, ok := Pick(u.layout, b, at)
		u.selected, u.selToken = "", ""
		switch {
		case ok && isToken:
			u.selToken = id
		case ok:
			u.selected = id
		}
		u.changedLocked(false)
	}
	u.mu.Unlock()
	u.refreshPanels()
	u.poke()
}

// typedKey handles a key typed outside the entries. Escape takes back
// "Add missed disk" when it waits for a click, else clears the selection.
// UI goroutine.
func (u *UI) typedKey(ev *fyne.KeyEvent) {
	if ev.Name != fyne.KeyEscape {
		return
	}
	u.mu.Lock()
	if u.addMode {
		u.addMode = false
	} else {
		u.selected, u.selToken = "", ""
	}
	u.changedLocked(false)
	u.mu.Unlock()
	u.refreshPanels()
	u.poke()
}

// Select selects a disk by id ("" for none), as a tap on it does.
func (u *UI) Select(id string) {
	u.mu.Lock()
	u.selected, u.selToken = id, ""
	u.changedLocked(false)
	u.mu.Unlock()
	u.poke()
}

// Selected returns the id of the selected disk.
func (u *UI) Selected() string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.selected
}

// CurrentRuling returns the latest ruling, nil before the first.
func (u *UI) CurrentRuling() *Ruling {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.ruling
}

// Corrections returns a copy of the corrections of the game.
func (u *UI) Corrections() Corrections {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.corr.Clone()
}

// Tracker returns the damage tracker's history.
func (u *UI) History() []Entry {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.tracker.History()
}

// Image returns the image shown in the live view. UI goroutine.
func (u *UI) Image() image.Image { return u.w.view.img.Image }
