package ui

import (
	"fmt"
	"image/color"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"tableref/engine"
	"tableref/models"
)

// widgets are the window's parts that change; UI goroutine only.
type widgets struct {
	view       *liveView
	status     *widget.Label
	rules      *widget.Select
	tabs       *container.AppTabs
	rulings    *fyne.Container
	ranges     *fyne.Container
	damage     *fyne.Container
	activation *fyne.Container
	correct    *fyne.Container
	calib      *widget.Label
	// unc is the uncertainty entry of the Ranges tab, kept across
	// rebuilds so that what the player is typing stays; uncShown is the
	// value last written into it.
	unc      *widget.Entry
	uncShown models.Centimetres
	shown    int
	// keys say what each panel last showed (see panelKeys): a panel is
	// rebuilt only when its key changes.
	keys panelKeys
}

// panelKeys are what the panels with buttons and entries show, positions
// left out. A live camera moves every disk by a millimetre or so from one
// frame to the next; rebuilding those panels on every frame would wipe
// what the player is typing in the Correct form and lose a click (Fyne
// taps a button only when it is still the one pressed).
type panelKeys struct {
	rulings, damage, activation, correct string
}

// keysOf returns the panel keys of a snapshot.
func keysOf(s snapshot) panelKeys {
	var disks []string
	for _, d := range s.layout.Disks {
		disks = append(disks, diskKey(d))
	}
	var k panelKeys
	k.rulings = fmt.Sprintf("%p", s.ruling)
	k.damage = fmt.Sprint(s.proposals, s.confirmed, s.tallies, len(s.history) > 0, disks)
	k.activation = fmt.Sprint(s.turn, s.acts, disks)
	k.correct = fmt.Sprint(s.selected, s.selToken, len(s.corr.Disks), len(s.corr.Tokens), len(s.corr.Added),
		players(s.layout), armyChoices(s.armies))
	if d, ok := s.layout.Disk(s.selected); ok {
		k.correct += diskKey(d)
	}
	for _, t := range s.layout.Tokens {
		if t.ID == s.selToken {
			k.correct += " token " + t.Kind
		}
	}
	for _, d := range s.deleted {
		k.correct += fmt.Sprintf(" deleted %s %s", d.id, d.label)
		if d.at != nil {
			k.correct += fmt.Sprintf(" %.1f,%.1f", d.at[0], d.at[1])
		}
	}
	return k
}

// diskKey is what the panels show of a disk: all of it but where it lies.
func diskKey(d models.Disk) string {
	d.X, d.Y, d.R, d.Pixel = 0, 0, 0, nil
	return fmt.Sprintf("%+v", d)
}

// snapshot is a copy of the state the panels show, taken under mu.
type snapshot struct {
	layout      models.Layout
	ruling      *Ruling
	rules       string
	bands       []models.Centimetres
	uncertainty models.Centimetres
	selected    string
	selToken    string
	settled     bool
	ended       bool
	addMode     bool
	frameSeq    int
	notice      string
	stopped     string
	saveErr     string
	frameNote   string
	proposals   []Proposal
	confirmed   map[int]bool
	tallies     map[string]Tally
	history     []Entry
	acts        map[string]bool
	turn        int
	armies      []ArmyList
	corr        Corrections
	deleted     []deletedDisk
	version     int
}

func (u *UI) snapshot() snapshot {
	u.mu.Lock()
	defer u.mu.Unlock()
	s := snapshot{layout: u.layout, ruling: u.ruling, rules: u.rules, bands: u.bands, uncertainty: u.uncertainty,
		selected: u.selected, selToken: u.selToken, settled: u.settled, ended: u.ended, addMode: u.addMode,
		notice: u.notice, stopped: u.stopped, saveErr: u.saveErr, confirmed: map[int]bool{}, tallies: map[string]Tally{}, history: u.tracker.History(),
		acts: map[string]bool{}, turn: u.acts.Turn, armies: slices.Clone(u.armies), corr: u.corr.Clone(), version: u.version}
	if u.frame != nil {
		s.frameSeq, s.frameNote = u.frame.Seq, u.frame.Note
	}
	s.deleted = u.deletedLocked()
	if u.ruling != nil {
		s.proposals = u.ruling.Proposals
		for i, p := range s.proposals {
			s.confirmed[i] = u.tracker.Confirmed(p)
		}
	}
	for _, d := range u.layout.Disks {
		if t, ok := u.tracker.Tally(d.ID); ok {
			s.tallies[d.ID] = t
		} else {
			s.tallies[d.ID] = Tally{Damage: d.Damage, Wounds: d.WoundsTaken}
		}
		s.acts[d.ID] = u.acts.Done(d.ID)
	}
	return s
}

// refreshPanels rebuilds the panels from the state. UI goroutine.
func (u *UI) refreshPanels() {
	s := u.snapshot()
	u.w.shown = s.version
	u.w.status.SetText(statusText(s))
	if s.uncertainty != u.w.uncShown {
		u.w.unc.SetText(strconv.FormatFloat(float64(s.uncertainty), 'g', -1, 64))
		u.w.uncShown = s.uncertainty
	}
	fill(u.w.ranges, u.rangesPanel(s))
	k := keysOf(s)
	if k.rulings != u.w.keys.rulings {
		fill(u.w.rulings, u.rulingsPanel(s))
	}
	if k.damage != u.w.keys.damage {
		fill(u.w.damage, u.damagePanel(s))
	}
	if k.activation != u.w.keys.activation {
		fill(u.w.activation, u.activationPanel(s))
	}
	if k.correct != u.w.keys.correct {
		fill(u.w.correct, u.correctPanel(s))
	}
	u.w.keys = k
}

func fill(c *fyne.Container, objs []fyne.CanvasObject) {
	c.Objects = objs
	c.Refresh()
}

func statusText(s snapshot) string {
	if s.frameSeq == 0 && s.ruling == nil {
		first := "Waiting for the first frame…"
		if s.stopped != "" {
			first = "No frame came"
		}
		return strings.Join(nonEmpty(first, s.stopped, s.saveErr, s.notice), " · ")
	}
	state := "table moving: rulings wait for it to settle"
	if s.settled || s.ended {
		state = "table settled"
	}
	if s.addMode {
		state = "click on the table where the missed disk lies (Esc cancels)"
	}
	text := fmt.Sprintf("Frame %d · %s · rules %s", s.frameSeq, state, s.rules)
	for _, n := range []string{s.stopped, s.saveErr, s.frameNote, s.notice} {
		if n != "" {
			text += " · " + n
		}
	}
	return text
}

func heading(text string) *widget.Label {
	return widget.NewLabelWithStyle(text, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
}

func wrapped(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	return l
}

// rulingsPanel shows the engagements in resolution order with the
// predicted outcome and the step log, and the frame the ruling is based on.
func (u *UI) rulingsPanel(s snapshot) []fyne.CanvasObject {
	r := s.ruling
	if r == nil {
		return []fyne.CanvasObject{wrapped("No ruling yet: rulings are made once the table has settled (no movement for a moment).")}
	}
	thumb := canvas.NewImageFromImage(r.Thumb)
	thumb.FillMode = canvas.ImageFillContain
	thumb.SetMinSize(fyne.NewSize(320, 240))
	out := []fyne.CanvasObject{
		heading(fmt.Sprintf("Ruling %d (%s), based on frame %d at %s", r.Seq, r.Rules, r.Frame.Seq, r.Frame.Time.Format("15:04:05"))),
		thumb,
	}
	if r.Err != nil {
		t := canvas.NewText("The rules cannot rule on this table: "+r.Err.Error(), color.NRGBA{0xff, 0x50, 0x50, 0xff})
		return append(out, t, wrapped("Correct the disk it names (Correct tab) or load its army list."))
	}
	rep := r.Report
	out = append(out, heading("Engagements, in resolution order"))
	order := ResolutionOrder(rep.Engagements, rep.ResolveBefore)
	if len(order) == 0 {
		out = append(out, widget.NewLabel("none"))
	}
	for i, e := range order {
		out = append(out, wrapped(fmt.Sprintf("%d. %s: %s → %s", i+1, e.ID, names(r.Layout, e.Attackers), names(r.Layout, e.Defenders))))
	}
	if len(rep.Embattled) > 0 {
		out = append(out, wrapped("Embattled: "+names(r.Layout, rep.Embattled)))
	}
	out = append(out, u.outcomeRows(r)...)
	if len(rep.Log) > 0 {
		out = append(out, heading("Step log"))
		for _, ev := range rep.Log {
			out = append(out, wrapped(eventText(ev.Engagement, ev.Step, ev.Text)))
		}
	}
	for _, w := range rep.Warnings {
		out = append(out, wrapped("Warning: "+w))
	}
	return out
}

func eventText(eng, step, text string) string {
	var pre []string
	if eng != "" {
		pre = append(pre, eng)
	}
	if step != "" {
		pre = append(pre, step)
	}
	if len(pre) == 0 {
		return text
	}
	return "[" + strings.Join(pre, " · ") + "] " + text
}

func (u *UI) outcomeRows(r *Ruling) []fyne.CanvasObject {
	rep := r.Report
	var out []fyne.CanvasObject
	var hits []string
	for _, h := range rep.Hits {
		if len(h.Disks) > 0 {
			hits = append(hits, h.Token+" hits "+names(r.Layout, h.Disks))
		}
	}
	if len(hits) > 0 {
		out = append(out, heading("Projectiles"), wrapped(strings.Join(hits, "; ")))
	}
	if rep.Melee != nil {
		out = append(out, heading("Predicted outcome"))
		out = append(out, wrapped("Casualties: "+orNone(names(r.Layout, rep.Melee.Casualties))))
	}
	if len(r.Proposals) > 0 {
		out = append(out, wrapped(fmt.Sprintf("%d change(s) to confirm in the Damage tab.", len(r.Proposals))))
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// rangesPanel lists the distance from the selected disk to every other.
func (u *UI) rangesPanel(s snapshot) []fyne.CanvasObject {
	out := []fyne.CanvasObject{
		container.NewBorder(nil, nil, widget.NewLabel("Measurement uncertainty (cm):"), nil, u.w.unc),
	}
	d, ok := s.layout.Disk(s.selected)
	if !ok {
		return append(out, wrapped("Click a disk on the table to see its range rings and the edge-to-edge distance to every other disk."))
	}
	t := tableOf(s.layout)
	i, _ := t.Index(d.ID)
	if s.layout.Units == models.UnitsPixels {
		// No calibration: the distances are pixels of the image, and a
		// band in cm cannot be placed among them.
		out = append(out, heading(fmt.Sprintf("From %s, in pixels", labelOf(d))),
			errorText("No calibration: distances are in pixels of the image, not centimetres; ranges cannot be judged (calibrate in the Calibrate tab)."))
		for _, row := range Ranges(t, i, nil, 0) {
			out = append(out, widget.NewLabel(fmt.Sprintf("%-24s %7.2f px", labelOfRow(row), engine.Round2(float64(row.Edge)))))
		}
		return out
	}
	bands := make([]string, len(s.bands))
	for i, b := range s.bands {
		bands[i] = fmt.Sprintf("%g", float64(b))
	}
	out = append(out, heading(fmt.Sprintf("From %s: rings at %s cm", labelOf(d), strings.Join(bands, " and "))))
	for _, row := range Ranges(t, i, s.bands, s.uncertainty) {
		out = append(out, widget.NewLabel(rangeLine(row, s.bands, s.uncertainty)))
	}
	return out
}

// rangeLine is one row of the Ranges tab. The distance is rounded as
// "tableref analyze" rounds it (engine.Round2: halves away from zero as
// written in decimal), so the tab and the report never differ in the last
// digit; printf alone would round 0.005 cm, stored a little below, down.
func rangeLine(row RangeRow, bands []models.Centimetres, unc models.Centimetres) string {
	return fmt.Sprintf("%-24s %7.2f cm   %s", labelOfRow(row), engine.Round2(float64(row.Edge)), row.Describe(bands, unc))
}

func labelOf(d models.Disk) string {
	if d.Name != "" {
		return d.Name
	}
	return d.ID
}

func labelOfRow(r RangeRow) string {
	if r.Name != "" {
		return r.Name
	}
	return r.ID
}

// setUncertainty reads the uncertainty entry. UI goroutine.
func (u *UI) setUncertainty(text string) {
	v, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
	u.mu.Lock()
	if err != nil || v < 0 || v > 10 {
		u.notice = fmt.Sprintf("uncertainty %q: give a number of cm between 0 and 10", text)
	} else {
		u.uncertainty, u.notice = models.Centimetres(v), ""
	}
	u.changedLocked(false)
	u.mu.Unlock()
	u.refreshPanels()
	u.poke()
}

// damagePanel shows the proposals awaiting confirmation and the tracker.
func (u *UI) damagePanel(s snapshot) []fyne.CanvasObject {
	out := []fyne.CanvasObject{heading("Awaiting your confirmation")}
	waiting := 0
	for i, p := range s.proposals {
		if s.confirmed[i] {
			continue
		}
		waiting++
		p := p
		b := widget.NewButton("Confirm", func() { u.confirm(p) })
		out = append(out, container.NewBorder(nil, nil, nil, b, wrapped(p.String())))
	}
	if waiting == 0 {
		out = append(out, widget.NewLabel("nothing"))
	} else {
		all := slices.Clone(s.proposals)
		out = append(out, widget.NewButton("Confirm all", func() {
			for _, p := range all {
				u.confirm(p)
			}
		}))
	}
	out = append(out, heading("Damage and wounds (confirmed)"))
	for _, d := range s.layout.Disks {
		if d.IsTerrain() {
			continue
		}
		d, t := d, s.tallies[d.ID]
		text := fmt.Sprintf("%s: damage %d, wounds %d", labelOf(d), t.Damage, t.Wounds)
		if t.Casualty {
			text += ", destroyed"
		}
		base := Tally{Damage: d.Damage, Wounds: d.WoundsTaken}
		buttons := container.NewHBox(
			widget.NewButton("D+1", func() { u.adjust(d.ID, base, 1, 0) }),
			widget.NewButton("D−1", func() { u.adjust(d.ID, base, -1, 0) }),
			widget.NewButton("W+1", func() { u.adjust(d.ID, base, 0, 1) }),
		)
		out = append(out, container.NewBorder(nil, nil, nil, buttons, widget.NewLabel(text)))
	}
	if len(s.history) > 0 {
		out = append(out, widget.NewButton("Undo last change", u.undo))
	}
	return out
}

func (u *UI) confirm(p Proposal) {
	u.mu.Lock()
	if err := u.tracker.Confirm(p); err == nil {
		u.changedLocked(false)
	}
	u.mu.Unlock()
	u.refreshPanels()
	u.poke()
}

func (u *UI) adjust(id string, base Tally, dd, dw int) {
	u.mu.Lock()
	u.tracker.Adjust(id, base, dd, dw)
	u.changedLocked(false)
	u.mu.Unlock()
	u.refreshPanels()
	u.poke()
}

func (u *UI) undo() {
	u.mu.Lock()
	u.tracker.Undo()
	u.changedLocked(false)
	u.mu.Unlock()
	u.refreshPanels()
	u.poke()
}

// activationPanel lists the creatures by owner with a check each.
func (u *UI) activationPanel(s snapshot) []fyne.CanvasObject {
	out := []fyne.CanvasObject{heading(fmt.Sprintf("Turn %d: who has acted", s.turn+1))}
	byOwner := map[string][]models.Disk{}
	var owners []string
	for _, d := range s.layout.Disks {
		if d.IsTerrain() {
			continue
		}
		if _, ok := byOwner[d.Owner]; !ok {
			owners = append(owners, d.Owner)
		}
		byOwner[d.Owner] = append(byOwner[d.Owner], d)
	}
	slices.Sort(owners)
	for _, o := range owners {
		name := o
		if name == "" {
			name = "(no owner)"
		}
		out = append(out, widget.NewLabel(name))
		for _, d := range byOwner[o] {
			id := d.ID
			c := widget.NewCheck(labelOf(d), func(v bool) { u.setActivated(id, v) })
			c.SetChecked(s.acts[id])
			out = append(out, c)
		}
	}
	return append(out, widget.NewButton("New turn (clear all)", u.newTurn))
}

func (u *UI) setActivated(id string, v bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.acts.Done(id) != v {
		u.acts.Set(id, v)
		u.version++
	}
}

func (u *UI) newTurn() {
	u.mu.Lock()
	u.acts.NewTurn()
	u.changedLocked(false)
	u.mu.Unlock()
	u.refreshPanels()
}
