package track

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math/rand/v2"
	"testing"

	"tableref/models"
	"tableref/vision/synth"
)

// truthDetector reports the ground truth of the frame being shown, in a
// shuffled order under ids of its own, as a perfect detector would.
type truthDetector struct {
	truth models.Layout
	rng   *rand.Rand
	reads int
}

func (d *truthDetector) Detect(image.Image) (models.Layout, error) {
	d.reads++
	l := d.truth.Clone()
	d.rng.Shuffle(len(l.Disks), func(i, j int) { l.Disks[i], l.Disks[j] = l.Disks[j], l.Disks[i] })
	rename := map[string]string{}
	for i := range l.Disks {
		rename[l.Disks[i].ID] = fmt.Sprintf("x%d", i)
		l.Disks[i].ID = rename[l.Disks[i].ID]
		l.Disks[i].Stats = nil
	}
	for k := range l.Tokens {
		for j, id := range l.Tokens[k].Touches {
			l.Tokens[k].Touches[j] = rename[id]
		}
	}
	return l, nil
}

func TestARenderedGameIsRuledOnlyAtRestWithStableIdentities(t *testing.T) {
	game, err := synth.NewGame(3, synth.GameOptions{Width: 480, Height: 270, Minutes: 0.4, Bumps: -1})
	if err != nil {
		t.Fatal(err)
	}
	det := &truthDetector{rng: rand.New(rand.NewPCG(1, 1))}
	p := NewPipeline(det, PipelineOptions{})
	rulings, adopted := 0, false
	for {
		f, ok := game.Next()
		if !ok {
			break
		}
		det.truth = f.Truth
		st, err := p.Step(f.Index, f.Image)
		if err != nil {
			t.Fatal(err)
		}
		if st.Ruling == nil {
			continue
		}
		rulings++
		if f.Moving {
			t.Fatalf("frame %d (%s): a ruling while the table moves", f.Index, f.Action)
		}
		if !adopted {
			if _, err := p.Tracker().Adopt(f.Truth); err != nil {
				t.Fatal(err)
			}
			adopted = true
			continue
		}
		for _, d := range f.Truth.Disks {
			got, ok := st.Ruling.Layout.Disk(d.ID)
			if ok && (got.X-d.X)*(got.X-d.X)+(got.Y-d.Y)*(got.Y-d.Y) < 0.01 {
				continue
			}
			if _, known := game.Scene.Truth.Disk(d.ID); known {
				t.Errorf("frame %d: disk %s at (%.1f, %.1f) not found under its id", f.Index, d.ID, d.X, d.Y)
			}
		}
	}
	if rulings < 3 {
		t.Errorf("got %d rulings in %d frames, want several", rulings, game.Len())
	}
	if det.reads > game.Len()/10 {
		t.Errorf("the detector ran on %d of %d frames, want it to run only when the table is still", det.reads, game.Len())
	}
}

// fixedDetector reports the layout it is given, whatever the frame.
type fixedDetector struct{ layout models.Layout }

func (d *fixedDetector) Detect(image.Image) (models.Layout, error) { return d.layout.Clone(), nil }

// flat returns a plain 480x270 frame with the given squares painted on.
func flat(squares ...image.Rectangle) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 480, 270))
	draw.Draw(img, img.Bounds(), &image.Uniform{color.RGBA{90, 110, 90, 255}}, image.Point{}, draw.Src)
	for _, r := range squares {
		draw.Draw(img, r, &image.Uniform{color.RGBA{20, 20, 20, 255}}, image.Point{}, draw.Src)
	}
	return img
}

// pixelDisk is a detection at a pixel centre, its table place the pixels
// over ten (cm).
func pixelDisk(id string, px, py, pr float64) models.Disk {
	return models.Disk{ID: id, Kind: models.KindCreature, X: models.Centimetres(px / 10), Y: models.Centimetres(py / 10), R: models.Centimetres(pr / 10),
		Pixel: &models.ImageCircle{PX: px, PY: py, PR: pr}}
}

func TestANewDiskIsInTheRulingThatReportsIt(t *testing.T) {
	// Two disks, then at frame 40 a third laid down; for every settle
	// gate the command accepts, the first ruling after it holds the new
	// disk, and every "new" event names a disk of its ruling.
	sq := func(x, y int) image.Rectangle { return image.Rect(x-20, y-20, x+20, y+20) }
	before, after := flat(sq(100, 100), sq(300, 100)), flat(sq(100, 100), sq(300, 100), sq(200, 200))
	two := models.Layout{Version: 1, Disks: []models.Disk{pixelDisk("x", 100, 100, 20), pixelDisk("y", 300, 100, 20)}}
	three := two.Clone()
	three.Disks = append(three.Disks, pixelDisk("z", 200, 200, 20))
	for _, settle := range []int{1, 2, 3, 4, 5, 15} {
		t.Run(fmt.Sprintf("settle %d", settle), func(t *testing.T) {
			det := &fixedDetector{}
			p := NewPipeline(det, PipelineOptions{Gate: GateOptions{SettleFrames: settle}})
			var first *Ruling
			for n := range 40 + 3*settle + 10 {
				img := before
				det.layout = two
				if n >= 40 {
					img, det.layout = after, three
				}
				st, err := p.Step(n, img)
				if err != nil {
					t.Fatal(err)
				}
				if st.Ruling == nil {
					continue
				}
				for _, e := range st.Ruling.Events {
					if _, ok := st.Ruling.Layout.Disk(e.ID); e.Kind == "new" && !ok {
						t.Errorf("frame %d: a new disk %s, not in the ruling's layout", n, e.ID)
					}
				}
				if n >= 40 && first == nil {
					first = st.Ruling
				}
			}
			if first == nil {
				t.Fatal("no ruling after the disk was laid down")
			}
			if got := idAt(first.Layout, 20, 20); got == "" {
				t.Errorf("ruling at frame %d: got disks %v, want the new one at (20, 20) cm", first.Frame, first.Layout.Disks)
			}
		})
	}
}

func TestAnEmptyFrameIsAnErrorNotAPanic(t *testing.T) {
	p := NewPipeline(&fixedDetector{}, PipelineOptions{})
	for _, img := range []image.Image{image.NewRGBA(image.Rectangle{}), image.NewGray(image.Rect(5, 5, 5, 9))} {
		if _, err := p.Step(0, img); err == nil {
			t.Errorf("a %v frame: got no error", img.Bounds())
		}
	}
	if _, err := p.Step(1, flat()); err != nil {
		t.Errorf("a frame after the empty ones: %v", err)
	}
	var d Differ
	if m := d.Observe(image.NewRGBA(image.Rectangle{})); m.Moving || m.Hand != nil || m.Global {
		t.Errorf("the differ on an empty frame: got %+v, want no motion", m)
	}
}

func TestAHandKeptStillIsNotRuledOnAtOnce(t *testing.T) {
	// Three disks; from frame 40 to 149 an arm rests from the left edge
	// over the first, longer than the differ takes a still hand for one
	// (30 frames), after which the table may settle around it.
	sq := func(x, y int) image.Rectangle { return image.Rect(x-20, y-20, x+20, y+20) }
	disks := []image.Rectangle{sq(100, 100), sq(300, 100), sq(400, 200)}
	bare := flat(disks...)
	arm := flat(disks...)
	draw.Draw(arm, image.Rect(0, 60, 140, 140), &image.Uniform{color.RGBA{200, 150, 120, 255}}, image.Point{}, draw.Src)
	full := models.Layout{Version: 1, Disks: []models.Disk{pixelDisk("x", 100, 100, 20), pixelDisk("y", 300, 100, 20), pixelDisk("w", 400, 200, 20)}}
	hidden := models.Layout{Version: 1, Disks: full.Disks[1:]}
	det := &fixedDetector{}
	p := NewPipeline(det, PipelineOptions{})
	held, rulings := -1, 0
	for n := range 200 {
		img, l := bare, full
		if n >= 40 && n < 150 {
			img, l = arm, hidden
		}
		det.layout = l
		st, err := p.Step(n, img)
		if err != nil {
			t.Fatal(err)
		}
		if st.Motion.Held != nil && held < 0 {
			held = n
		}
		if st.Ruling == nil {
			continue
		}
		rulings++
		// The frame the hand is taken for the table counts as the first
		// still one.
		if still := n - held + 1; held >= 0 && still < 15 {
			t.Errorf("frame %d: a ruling %d still frames after the hand was taken for the table, want 15", n, still)
		}
		for _, e := range st.Ruling.Events {
			if e.Kind == "unseen" || e.Kind == "removed" {
				t.Errorf("frame %d: got event %q, want the disk under the hand kept", n, e.Text)
			}
		}
		for _, q := range st.Ruling.Questions {
			t.Errorf("frame %d: got question %q, want none", n, q.Text)
		}
		if got := idAt(st.Ruling.Layout, 10, 10); got == "" {
			t.Errorf("frame %d: the disk under the hand is missing from %v", n, st.Ruling.Layout.Disks)
		}
	}
	if held < 0 || rulings < 2 {
		t.Errorf("got the hand taken for the table at frame %d and %d rulings, want it taken (frame 71) and rulings before and after", held, rulings)
	}
}
