package ui

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"tableref/engine"
	"tableref/models"
)

func tableOf(l models.Layout) *engine.Table { return engine.NewTable(l) }

// tokenKinds are offered when correcting a token.
var tokenKinds = []string{"arrow", "bolt", "fireball", "boulder", "damage", "wound", "activation", "gold", "unknown"}

// diskKinds are offered when correcting a disk.
var diskKinds = []string{models.KindCreature, models.KindTerrain, models.KindSpell, models.KindUnknown}

// correctPanel is the form that corrects the selected disk or token.
func (u *UI) correctPanel(s snapshot) []fyne.CanvasObject {
	var objs []fyne.CanvasObject
	if s.selToken != "" {
		objs = u.tokenForm(s)
	} else if d, ok := s.layout.Disk(s.selected); ok {
		objs = u.diskForm(s, d)
	} else {
		objs = []fyne.CanvasObject{
			wrapped("Click a disk or a token on the table to correct what was detected: its name and stats (from an army list), owner, stacking order, kind; or delete a phantom. \"Add missed disk\" (above) adds one the camera did not see."),
			wrapped(fmt.Sprintf("Corrections kept for this game: %d disk fix(es), %d token fix(es), %d added disk(s).", len(s.corr.Disks), len(s.corr.Tokens), len(s.corr.Added))),
		}
	}
	return append(objs, u.deletedSection(s)...)
}

// deletedDisk is a disk deleted as "not a disk", as the Deleted section
// lists it.
type deletedDisk struct {
	id, label string
	at        *[2]float64
}

// deletedLocked lists the disks the corrections delete, named as the
// detection (with the fix's own corrections) names them; the caller holds
// mu.
func (u *UI) deletedLocked() []deletedDisk {
	var out []deletedDisk
	for _, f := range u.corr.Disks {
		if !f.Delete || f.ID == "" {
			continue
		}
		d := models.Disk{ID: f.ID}
		if u.frame != nil {
			if det, ok := u.frame.Layout.Disk(f.ID); ok {
				d = det
			}
		}
		f.applyTo(&d)
		out = append(out, deletedDisk{id: f.ID, label: labelOf(d), at: f.At})
	}
	return out
}

// deletedSection lists the disks deleted as "not a disk", each with a
// Restore button.
func (u *UI) deletedSection(s snapshot) []fyne.CanvasObject {
	if len(s.deleted) == 0 {
		return nil
	}
	objs := []fyne.CanvasObject{widget.NewSeparator(), heading(fmt.Sprintf("Deleted (%d)", len(s.deleted)))}
	for _, d := range s.deleted {
		text := d.label
		if d.label != d.id {
			text += " (id " + d.id + ")"
		}
		if d.at != nil {
			text += fmt.Sprintf(" at %.1f, %.1f cm", d.at[0], d.at[1])
		}
		id := d.id
		objs = append(objs, container.NewBorder(nil, nil, nil,
			widget.NewButton("Restore", func() { u.restoreDisk(id) }), widget.NewLabel(text)))
	}
	return objs
}

// deletedNotice is the status line's word after a disk is deleted.
func deletedNotice(id string) string {
	return "Deleted " + id + " — restore it under Deleted (Correct tab)"
}

// restoreDisk takes back the deletion of a disk as "not a disk".
func (u *UI) restoreDisk(id string) {
	u.mu.Lock()
	if u.corr.Restore(id) {
		if u.notice == deletedNotice(id) {
			u.notice = ""
		}
		u.saveCorrectionsLocked()
		u.changedLocked(true)
	}
	u.mu.Unlock()
	u.refreshPanels()
	u.poke()
}

// diskForm edits one disk. The fields start from the corrected layout.
func (u *UI) diskForm(s snapshot, d models.Disk) []fyne.CanvasObject {
	name := widget.NewEntry()
	name.SetText(d.Name)
	owner := widget.NewSelectEntry(players(s.layout))
	owner.SetText(d.Owner)
	side := widget.NewEntry()
	side.SetText(d.Side)
	z := widget.NewEntry()
	z.SetText(strconv.Itoa(d.Z))
	kind := widget.NewSelect(diskKinds, nil)
	kind.SetSelected(d.Kind)
	stats := widget.NewEntry()
	stats.SetText(formatStats(d.Stats))
	keywords := widget.NewEntry()
	keywords.SetText(strings.Join(d.Keywords, ", "))
	army := widget.NewSelect(armyChoices(s.armies), nil)
	army.PlaceHolder = "(load an army list)"
	form := widget.NewForm(
		widget.NewFormItem("Name", name),
		widget.NewFormItem("Owner", owner),
		widget.NewFormItem("Side", side),
		widget.NewFormItem("Stacking z", z),
		widget.NewFormItem("Kind", kind),
		widget.NewFormItem("Stats", stats),
		widget.NewFormItem("Keywords", keywords),
		widget.NewFormItem("From army list", army),
	)
	id := d.ID
	apply := widget.NewButton("Apply correction", func() {
		f := formFix{name: name.Text, owner: owner.Text, side: side.Text, z: z.Text, kind: kind.Selected,
			stats: stats.Text, keywords: keywords.Text, army: army.Selected}
		if err := u.correctDisk(id, f); err != nil {
			dialog.ShowError(err, u.Window)
		}
	})
	apply.Importance = widget.HighImportance
	del := widget.NewButton("Delete: not a disk (phantom)", func() { u.deleteDisk(id) })
	del.Importance = widget.DangerImportance
	return []fyne.CanvasObject{
		heading(fmt.Sprintf("Correct %s (id %s)", labelOf(d), d.ID)),
		form,
		wrapped("Stats as name=value, separated by commas (attack=5, defense=3). A correction is kept for the whole game and follows the disk when it moves."),
		container.NewHBox(apply, del),
	}
}

// formFix is what the disk form holds when applied.
type formFix struct {
	name, owner, side, z, kind, stats, keywords, army string
}

// correctDisk records a correction of a disk from the form.
func (u *UI) correctDisk(id string, f formFix) error {
	zv, err := strconv.Atoi(strings.TrimSpace(f.z))
	if err != nil {
		return fmt.Errorf("stacking z %q: give a whole number", f.z)
	}
	stats, err := ParseStats(f.stats)
	if err != nil {
		return err
	}
	u.mu.Lock()
	defer func() { u.mu.Unlock(); u.refreshPanels(); u.poke() }()
	d, ok := u.layout.Disk(id)
	if !ok {
		return fmt.Errorf("disk %s is no longer on the table", id)
	}
	fix := u.corr.Fix(d)
	if a, e, ok := findArmyEntry(u.armies, f.army); ok {
		a.FixFrom(e, fix)
	} else {
		// The form starts from the corrected disk and holds all of it, so
		// an emptied stats entry means "no stats", not "no change".
		if stats == nil {
			stats = map[string]int{}
		}
		fix.Name, fix.Owner, fix.Side, fix.Kind = ptr(f.name), ptr(f.owner), ptr(f.side), ptr(f.kind)
		fix.Stats, fix.Keywords = stats, splitList(f.keywords)
	}
	fix.Z = &zv
	u.saveCorrectionsLocked()
	u.changedLocked(true)
	return nil
}

// CorrectDisk applies a fix to the disk with the given id, as the form
// does, and returns an error when the disk is not on the table.
func (u *UI) CorrectDisk(id string, change func(*DiskFix)) error {
	u.mu.Lock()
	defer func() { u.mu.Unlock(); u.poke() }()
	d, ok := u.layout.Disk(id)
	if !ok {
		return fmt.Errorf("disk %s is not on the table", id)
	}
	change(u.corr.Fix(d))
	u.saveCorrectionsLocked()
	u.changedLocked(true)
	return nil
}

func ptr(s string) *string { return &s }

func (u *UI) deleteDisk(id string) {
	u.mu.Lock()
	if !u.corr.RemoveAdded(id) {
		if d, ok := u.layout.Disk(id); ok {
			u.corr.Fix(d).Delete = true
			u.notice = deletedNotice(id)
		}
	}
	u.selected = ""
	u.saveCorrectionsLocked()
	u.changedLocked(true)
	u.mu.Unlock()
	u.refreshPanels()
	u.poke()
}

// tokenForm corrects a token's kind or deletes it.
func (u *UI) tokenForm(s snapshot) []fyne.CanvasObject {
	var tok models.Token
	for _, t := range s.layout.Tokens {
		if t.ID == s.selToken {
			tok = t
		}
	}
	if tok.ID == "" {
		return []fyne.CanvasObject{widget.NewLabel("The token is no longer on the table.")}
	}
	id := tok.ID
	kind := widget.NewSelect(tokenKinds, func(k string) {
		if k != tok.Kind {
			u.correctToken(id, func(f *TokenFix) { f.Kind = &k })
		}
	})
	kind.SetSelected(tok.Kind)
	del := widget.NewButton("Delete: not a token", func() { u.correctToken(id, func(f *TokenFix) { f.Delete = true }) })
	del.Importance = widget.DangerImportance
	return []fyne.CanvasObject{
		heading("Correct token " + id),
		widget.NewForm(widget.NewFormItem("Kind", kind)),
		del,
	}
}

func (u *UI) correctToken(id string, change func(*TokenFix)) {
	u.mu.Lock()
	for _, t := range u.layout.Tokens {
		if t.ID == id {
			change(u.corr.FixToken(t))
		}
	}
	u.saveCorrectionsLocked()
	u.changedLocked(true)
	u.mu.Unlock()
	u.refreshPanels()
	u.poke()
}

// startAdd arms the next tap to place a missed disk.
func (u *UI) startAdd() {
	u.mu.Lock()
	u.addMode = true
	u.version++
	u.mu.Unlock()
	u.refreshPanels()
}

// noAddNotice is the status line's word when a click cannot place a disk.
const noAddNotice = "cannot add a disk there: the click does not map onto the table"

// addDiskLocked adds a missed disk at p (radius 2.5 cm, the commonest)
// and selects it for correction; the caller holds mu. Ids count up from
// the largest ever used in the game and are never reused, so that nothing
// kept for a removed added disk (a fix, a tally) reaches a new one. A
// point beyond the corrections' limits (from a glitched fit of the image
// to the table) adds nothing and says so.
func (u *UI) addDiskLocked(p models.TablePoint) {
	if position(p.X, p.Y) == nil {
		u.notice = noAddNotice
		u.version++
		return
	}
	if u.notice == noAddNotice {
		u.notice = ""
	}
	u.lastAdded = max(u.lastAdded, u.corr.LastAddedNumber())
	id := ""
	for taken := true; taken; _, taken = u.layout.Disk(id) {
		u.lastAdded++
		id = fmt.Sprintf("%s%d", addedPrefix, u.lastAdded)
	}
	u.corr.Added = append(u.corr.Added, AddDisk{ID: id, Name: "New disk", Kind: models.KindCreature,
		X: float64(p.X), Y: float64(p.Y), R: 2.5, Z: 0})
	u.selected = id
	u.saveCorrectionsLocked()
	u.changedLocked(true)
	if u.frame != nil {
		u.applyCorrections()
	}
	u.w.tabs.SelectIndex(4)
}

// openArmyList asks for an army list file and loads it.
func (u *UI) openArmyList() {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil || r == nil {
			return
		}
		path := r.URI().Path()
		r.Close()
		if err := u.LoadArmyList(path); err != nil {
			dialog.ShowError(err, u.Window)
		}
	}, u.Window)
	d.Show()
}

// LoadArmyList reads an army list file and offers its entries in the
// correction form.
func (u *UI) LoadArmyList(path string) error {
	a, err := LoadArmyList(path)
	if err != nil {
		return err
	}
	u.mu.Lock()
	u.armies = append(u.armies, a)
	u.version++
	u.mu.Unlock()
	u.poke()
	return nil
}

func armyChoices(as []ArmyList) []string {
	var out []string
	for _, a := range as {
		for _, e := range a.Disks {
			out = append(out, a.Army+": "+e.Name)
		}
	}
	return out
}

func findArmyEntry(as []ArmyList, choice string) (ArmyList, ArmyEntry, bool) {
	for _, a := range as {
		if rest, ok := strings.CutPrefix(choice, a.Army+": "); ok {
			if e, ok := a.Entry(rest); ok {
				return a, e, true
			}
		}
	}
	return ArmyList{}, ArmyEntry{}, false
}

func players(l models.Layout) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range l.Players {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, d := range l.Disks {
		if d.Owner != "" && !seen[d.Owner] {
			seen[d.Owner] = true
			out = append(out, d.Owner)
		}
	}
	return out
}

// ParseStats reads stats written "attack=5, defense=3" (spaces and a
// trailing comma allowed). An empty text gives nil stats.
func ParseStats(text string) (map[string]int, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	out := map[string]int{}
	for _, part := range strings.Split(text, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return nil, fmt.Errorf("stats: %q is not name=value", part)
		}
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return nil, fmt.Errorf("stats: %s: %q is not a whole number", k, strings.TrimSpace(v))
		}
		out[k] = n
	}
	return out, nil
}

func formatStats(s models.Stats) string {
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%d", k, s[k])
	}
	return strings.Join(parts, ", ")
}

func splitList(text string) []string {
	out := []string{}
	for _, p := range strings.Split(text, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// calibrationPanel is the calibration wizard: capture views of the board,
// solve, read the RMS error and the uncertainty, save.
func (u *UI) calibrationPanel() fyne.CanvasObject {
	u.w.calib = wrapped("")
	intro := wrapped("Calibration tells tableref how camera pixels map to centimetres on the table. " +
		"Lay the printed chessboard flat on the table, capture it in 10 to 20 positions and angles, then solve and save.")
	if u.opts.Calibrator == nil {
		u.w.calib.SetText("No camera is connected, so there is nothing to calibrate. Start tableref with a camera (tableref ui --camera 0) to use this wizard.")
		return container.NewVBox(heading("Calibration wizard"), intro, u.w.calib)
	}
	u.w.calib.SetText("No view captured yet.")
	var buttons []*widget.Button
	run := func(work func() (string, error)) {
		for _, b := range buttons {
			b.Disable()
		}
		u.w.calib.SetText("Working…")
		go func() {
			msg, err := work()
			if err != nil {
				msg = "Failed: " + err.Error()
			}
			fyne.Do(func() {
				u.w.calib.SetText(msg)
				for _, b := range buttons {
					b.Enable()
				}
			})
		}()
	}
	c := u.opts.Calibrator
	capture := widget.NewButton("1. Capture board view", func() {
		run(func() (string, error) {
			n, err := c.Capture()
			return fmt.Sprintf("%d view(s) captured. Move the board and capture again (10 or more are best).", n), err
		})
	})
	solve := widget.NewButton("2. Solve", func() {
		run(func() (string, error) {
			r, err := c.Solve()
			if err != nil {
				return "", err
			}
			u.mu.Lock()
			if r.UncertaintyMM > 0 {
				u.uncertainty = models.Centimetres(r.UncertaintyMM / 10)
			}
			u.version++
			u.mu.Unlock()
			u.poke()
			msg := fmt.Sprintf("From %d views: RMS reprojection error %.2f px, uncertainty on the table ±%.1f mm.", r.Views, r.RMSPixels, r.UncertaintyMM)
			if r.Note != "" {
				msg += " " + r.Note
			}
			return msg, nil
		})
	})
	save := widget.NewButton("3. Save", func() {
		run(func() (string, error) {
			p, err := c.Save()
			return "Saved to " + p, err
		})
	})
	buttons = []*widget.Button{capture, solve, save}
	return container.NewVBox(heading("Calibration wizard"), intro, container.NewHBox(capture, solve, save), u.w.calib)
}
