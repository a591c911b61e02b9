package vision

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"gocv.io/x/gocv"
)

func TestColourTable(t *testing.T) {
	cat := DefaultTokenCatalogue
	tab, err := newColourTable(cat)
	if err != nil {
		t.Fatal(err)
	}
	kind := func(name string) int { return catalogueIndex(t, name) }
	scale := func(c [3]float64, s float64) [3]float64 {
		return [3]float64{min(255, s*c[0]), min(255, s*c[1]), min(255, s*c[2])}
	}
	cases := []struct {
		name  string
		rgb   [3]float64
		kind  string
		match bool
	}{
		{"fireball as printed", cat[kind("fireball")].Colour, "fireball", true},
		{"fireball under a dim corner", scale(cat[kind("fireball")].Colour, 0.75), "fireball", true},
		{"fireball under the lamp's spot", scale(cat[kind("fireball")].Colour, 1.1), "fireball", true},
		{"fireball in a deep shadow is not", scale(cat[kind("fireball")].Colour, 0.4), "fireball", false},
		{"gold dimmed", scale(cat[kind("gold")].Colour, 0.8), "gold", true},
		{"gold is not a fireball", cat[kind("gold")].Colour, "fireball", false},
		{"a red damage chit dimmed", scale(cat[kind("damage")].Colour, 0.75), "damage", true},
		{"a pink is not damage", [3]float64{230, 120, 150}, "damage", false},
		{"activation a little dim", scale(cat[kind("activation")].Colour, 0.8), "activation", true},
		{"a grey bolt is not white activation", cat[kind("bolt")].Colour, "activation", false},
		{"white activation is not a grey bolt", cat[kind("activation")].Colour, "bolt", false},
		{"a green table is not a bolt", [3]float64{60, 120, 70}, "bolt", false},
		{"a bluish grey bolt", [3]float64{128, 130, 140}, "bolt", true},
		{"a brown wood is an arrow's colour", [3]float64{150, 110, 62}, "arrow", true},
		{"a blue rim is nothing", [3]float64{40, 60, 200}, "", false},
	}
	for _, tc := range cases {
		l, a, b := rgbToLab(tc.rgb)
		bits := tab.kindsOf(l, a, b)
		if tc.kind == "" {
			if got := bits != 0; got != tc.match {
				t.Errorf("%s: bits %b", tc.name, bits)
			}
			continue
		}
		if got := bits&(1<<kind(tc.kind)) != 0; got != tc.match {
			t.Errorf("%s: %v of %s's colour, want %v (Lab %.0f %.0f %.0f)", tc.name, got, tc.kind, tc.match, l, a, b)
		}
	}
}

func TestColourTableTooManyKinds(t *testing.T) {
	kinds := make([]TokenKind, maxTokenKinds+1)
	if _, err := newColourTable(kinds); err == nil {
		t.Fatal("a catalogue of 65 kinds was accepted")
	}
	d := NewDetector(Options{Tokens: kinds})
	defer d.Close()
	frame := gocv.NewMatWithSize(240, 320, gocv.MatTypeCV8UC3)
	defer frame.Close()
	if _, err := d.Detect(frame); err == nil {
		t.Fatal("Detect ran with a catalogue the colour table cannot hold")
	}
}

// The masks, written in C++, agree with the table's lookups pixel by pixel.
func TestColourMasksAgree(t *testing.T) {
	tab, err := newColourTable(DefaultTokenCatalogue)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 20000
	lab := make([]byte, 3*n)
	for i := range lab {
		lab[i] = byte(rng.IntN(256))
	}
	// Half the pixels near a kind's colour, so that every kind is hit.
	for i := 0; i < n; i += 2 {
		k := DefaultTokenCatalogue[rng.IntN(len(DefaultTokenCatalogue))]
		l, a, b := rgbToLab(k.Colour)
		lab[3*i], lab[3*i+1], lab[3*i+2] = byte(l*(0.7+0.3*rng.Float64())), byte(a+4*rng.NormFloat64()), byte(b+4*rng.NormFloat64())
	}
	masks := make([][]byte, len(DefaultTokenCatalogue))
	// The masks are C memory, as a Mat's data is.
	store := gocv.NewMatWithSize(1, n*len(masks), gocv.MatTypeCV8U)
	defer store.Close()
	buf, err := store.DataPtrUint8()
	if err != nil {
		t.Fatal(err)
	}
	for i := range masks {
		masks[i] = buf[i*n : (i+1)*n]
	}
	tab.masks(lab, n, nil, lightBlock, masks)
	hits := make([]int, len(masks))
	for p := range n {
		bits := tab.kinds(lab[3*p], lab[3*p+1], lab[3*p+2])
		for k, m := range masks {
			want := byte(0)
			if bits&(1<<k) != 0 {
				want = 255
				hits[k]++
			}
			if m[p] != want {
				t.Fatalf("pixel %d kind %d: mask %d, table %d", p, k, m[p], want)
			}
		}
	}
	for k, h := range hits {
		if h == 0 {
			t.Errorf("kind %s never hit", DefaultTokenCatalogue[k].Kind)
		}
	}
}

// catalogueIndex is the index of kind name in the default token
// catalogue.
func catalogueIndex(t *testing.T, name string) int {
	t.Helper()
	for i, k := range DefaultTokenCatalogue {
		if k.Kind == name {
			return i
		}
	}
	t.Fatalf("no kind %q", name)
	return -1
}

// Detectors of catalogues of the same colours share one colour table,
// whatever the kinds are called; other colours get their own. Levels
// built by several detectors at once come out as one built alone.
func TestColourTableShared(t *testing.T) {
	a, err := newColourTable(DefaultTokenCatalogue)
	if err != nil {
		t.Fatal(err)
	}
	renamed := slices.Clone(DefaultTokenCatalogue)
	renamed[0].Kind = "shaft"
	b, err := newColourTable(renamed)
	if err != nil {
		t.Fatal(err)
	}
	if &a.bits[0] != &b.bits[0] {
		t.Error("a catalogue of the same colours got a table of its own")
	}
	recoloured := slices.Clone(DefaultTokenCatalogue)
	recoloured[0].Colour = [3]float64{90, 60, 200}
	c, err := newColourTable(recoloured)
	if err != nil {
		t.Fatal(err)
	}
	if &a.bits[0] == &c.bits[0] {
		t.Fatal("a catalogue of other colours was given the default's table")
	}
	// c is new: its levels are built by whichever goroutine asks first.
	// Asked for the new kind's own colour: under the typical light at
	// least, it is of that kind.
	fl, fa, fb := rgbToLab(recoloured[0].Colour)
	l, la, lb := uint8(math.Round(fl)), uint8(math.Round(fa)), uint8(math.Round(fb))
	var wg sync.WaitGroup
	got := make([][]uint64, 4)
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range lightLevels {
				got[g] = append(got[g], c.kindsUnder(i, l, la, lb))
			}
		}()
	}
	wg.Wait()
	alone := colourTable{colours: c.colours, bits: make([]uint64, lightLevels*tableCells), once: new([lightLevels]sync.Once)}
	for i := range lightLevels {
		want := alone.kindsUnder(i, l, la, lb)
		if i == lightLevelOne && want&1 == 0 {
			t.Fatalf("the new kind's own colour is not of its kind: %b", want)
		}
		for g := range got {
			if got[g][i] != want {
				t.Fatalf("level %d, goroutine %d: kinds %b, built alone %b", i, g, got[g][i], want)
			}
		}
	}
}
