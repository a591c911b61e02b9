package diskwars

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"tableref/engine"
	"tableref/models"
)

// spellOn builds a spell disk of radius 1.5 lying on the disk on (centred
// on it, one level above), named by its "name".
func spellOn(id, spell string, on models.Disk) models.Disk {
	return models.Disk{ID: id, Name: spell, Kind: models.KindSpell, X: on.X, Y: on.Y, R: 1.5, Z: on.Z + 1}
}

func withExtra(d models.Disk, field string, v any) models.Disk {
	raw, _ := json.Marshal(v)
	if d.Extra == nil {
		d.Extra = map[string]json.RawMessage{}
	}
	d.Extra[field] = raw
	return d
}

func arrowAt(id string, x, y float64) models.Token {
	return models.Token{ID: id, Kind: "arrow", X: models.Centimetres(x), Y: models.Centimetres(y), R: 0.8}
}

func creatureOf(r Result, id string) Creature {
	for _, c := range r.Creatures {
		if c.ID == id {
			return c
		}
	}
	return Creature{}
}

// TestBouclier: "Bouclier ... le Disk choisi gagne un bonus de 3 points à
// son Endurance jusqu'à la fin du tour (laissez le Disk de sort sur la
// cible)" (shared/seeds/004, Livre de sorts, level 1). An attack of 3 kills
// a toughness-3 defender; under Bouclier it holds 3 damage against 6.
func TestBouclier(t *testing.T) {
	b := fighter("B", "b", 0, 0, 2.5, 0, 1, 1, 3)
	a := fighter("A", "a", 3, 0, 2.5, 1, 3, 1, 4)
	r := resolve(t, layoutOf(b, a))
	if !slices.Contains(r.Casualties, "B") {
		t.Fatalf("without the shield: got casualties %v, want B", r.Casualties)
	}
	r = resolve(t, layoutOf(b, a, spellOn("s1", "Bouclier", b)))
	if len(r.Casualties) != 0 || r.Damage["B"] != 3 || creatureOf(r, "B").Toughness != 6 {
		t.Errorf("with the shield: got casualties %v, damage %v, toughness %d; want none, B 3, 6", r.Casualties, r.Damage, creatureOf(r, "B").Toughness)
	}
	if got := creatureOf(r, "B").Effects; !reflect.DeepEqual(got, []string{"Bouclier (s1)"}) {
		t.Errorf("effects: got %v, want [Bouclier (s1)]", got)
	}
	if len(r.Spells) != 1 || r.Spells[0].On != "B" || r.Spells[0].From != "target" {
		t.Errorf("spells: got %+v, want Bouclier on B", r.Spells)
	}
}

// TestRuneDeProtection: "le Disk choisi gagne une immunité totale aux
// projectiles jusqu'à la fin du tour" (Livre de sorts, Rune de
// protection). One arrow lies on two disks: the one under the rune takes
// nothing, the other 2; the shooter sees the immune target.
func TestRuneDeProtection(t *testing.T) {
	rune := fighter("rune", "b", 0, 0, 2.5, 0, 1, 1, 2)
	other := fighter("other", "b", 5.2, 0, 2.5, 0, 1, 1, 2)
	archer := fighter("archer", "a", 0, 20, 2.5, 0, 1, 1, 2)
	archer.MissileKind, archer.MissileCount = "arrow", 1
	l := layoutOf(rune, other, archer, spellOn("s1", "Rune de protection", rune))
	l.Tokens = []models.Token{arrowAt("f1", 2.6, 0)}
	r := resolve(t, l)
	if !reflect.DeepEqual(r.Casualties, []string{"other"}) {
		t.Errorf("casualties: got %v, want [other]", r.Casualties)
	}
	if h := r.Missiles[0]; !reflect.DeepEqual(h.Immune, []string{"rune"}) || !sameSet(h.Disks, []string{"rune", "other"}) {
		t.Errorf("missile: got %+v, want disks rune and other, rune immune", h)
	}
	for _, tg := range r.Shooters[0].Targets {
		if want := map[string]string{"rune": "Rune de protection (s1)"}[tg.Disk]; tg.Immune != want {
			t.Errorf("target %s: got immune %q, want %q", tg.Disk, tg.Immune, want)
		}
	}
}

// TestProtection: "le magicien et tous les Disks en contact avec lui ne
// pourront plus prendre de dommages jusqu'à la fin du tour" (Livre de
// sorts, level 2). The book takes the disk off; tableref reads one left on
// the caster. The orc lying on the mage is in contact: neither takes
// damage from the other; the friend in contact takes none from an arrow;
// a friend out of contact does.
func TestProtection(t *testing.T) {
	mage := fighter("mage", "a", 0, 0, 2.5, 0, 1, 5, 2, "spellcaster:2")
	orc := fighter("orc", "b", 3, 0, 2.5, 1, 5, 1, 2)
	friend := fighter("friend", "a", -4, 0, 2.5, 1, 1, 1, 2)
	far := fighter("far", "a", 0, 20, 2.5, 0, 1, 1, 2)
	l := layoutOf(mage, orc, friend, far, spellOn("s1", "Protection", mage))
	l.Disks[4].Z = 2
	l.Tokens = []models.Token{arrowAt("f1", -4, 0), arrowAt("f2", 0, 20)}
	r := resolve(t, l)
	if !reflect.DeepEqual(r.Casualties, []string{"far"}) {
		t.Errorf("casualties: got %v, want [far]", r.Casualties)
	}
	if want := []string{"mage", "orc", "friend"}; !sameSet(r.Spells[0].Affected, want) || r.Spells[0].From != "layout" {
		t.Errorf("affected: got %v from %s, want %v from layout", r.Spells[0].Affected, r.Spells[0].From, want)
	}
	protected := 0
	for _, e := range r.Log {
		if e.Kind == "protected" {
			protected++
		}
	}
	if protected != 3 { // the arrow on friend, the orc's attack, the mage's answer
		t.Errorf("protected events: got %d, want 3", protected)
	}
	// The "affected" field, as cast, overrides the contacts of the table.
	l.Disks[4] = withExtra(l.Disks[4], "affected", []string{"mage"})
	r = resolve(t, l)
	if !sameSet(r.Casualties, []string{"far", "friend", "orc"}) {
		t.Errorf("with affected [mage]: got casualties %v, want far, friend, orc", r.Casualties)
	}
}

// TestProtectionDivine: "le magicien bénéficie d'un bonus de 6 points à
// son Endurance jusqu'à la fin du tour" (Livre de sorts, level 2).
func TestProtectionDivine(t *testing.T) {
	mage := fighter("mage", "a", 0, 0, 2.5, 0, 1, 1, 2, "spellcaster:2")
	orc := fighter("orc", "b", 3, 0, 2.5, 1, 7, 1, 9)
	r := resolve(t, layoutOf(mage, orc, spellOn("s1", "Protection divine", mage)))
	if len(r.Casualties) != 0 || creatureOf(r, "mage").Toughness != 8 || r.Damage["mage"] != 7 {
		t.Errorf("got casualties %v, toughness %d, damage %v; want none, 8, mage 7", r.Casualties, creatureOf(r, "mage").Toughness, r.Damage)
	}
}

// TestDecrepitude: "tous les Disks ennemis subissent un malus de 1 point
// en Endurance jusqu'à la fin du tour (laissez le Disk de sort sur le
// lanceur) ... Cette valeur ne peut pas descendre en dessous de 1" (Livre
// de sorts, Décrépitude, 15 cm de rayon autour du lanceur).
func TestDecrepitude(t *testing.T) {
	mage := fighter("mage", "a", 0, 0, 2.5, 0, 1, 1, 2, "spellcaster:1")
	near := fighter("near", "b", 12, 0, 2.5, 0, 1, 1, 4)      // edge 7 cm
	weak := fighter("weak", "b", 0, 12, 2.5, 0, 1, 1, 1)      // toughness 1 stays 1
	far := fighter("far", "b", 30, 0, 2.5, 0, 1, 1, 4)        // edge 25 cm
	friend := fighter("friend", "a", -12, 0, 2.5, 0, 1, 1, 4) // a friend
	hitter := fighter("hitter", "a", 15, 0, 2.5, 1, 3, 1, 9)  // lies on near
	l := layoutOf(mage, near, weak, far, friend, hitter, spellOn("s1", "Décrépitude", mage))
	r := resolve(t, l)
	// Only the fighters are read in the report: near (4 - 1 = 3).
	if got := creatureOf(r, "near").Toughness; got != 3 {
		t.Errorf("near: got toughness %d, want 3", got)
	}
	if !sameSet(r.Spells[0].Affected, []string{"near", "weak"}) {
		t.Errorf("affected: got %v, want near and weak", r.Spells[0].Affected)
	}
	// The hitter's attack 3 now kills near (toughness 4 - 1).
	if !reflect.DeepEqual(r.Casualties, []string{"near"}) {
		t.Errorf("casualties: got %v, want [near]", r.Casualties)
	}
	fx, err := SpellEffects(engine.NewTable(l))
	if err != nil {
		t.Fatal(err)
	}
	tb := engine.NewTable(l)
	for id, tough := range map[string]int{"near": 3, "weak": 1, "far": 4, "friend": 4, "mage": 2} {
		i, _ := tb.Index(id)
		c, _ := CreatureOf(tb.Disk(i))
		if got := fx.Of(i).ApplyTo(c).Toughness; got != tough {
			t.Errorf("%s: got toughness %d, want %d", id, got, tough)
		}
	}
}

// TestTireurDElite: "Le Disk ciblé sera automatiquement touché par toute
// attaque de projectiles ... le propriétaire du lanceur de sort peut
// placer tous les projectiles des tireurs à portée sur le Disk ciblé"
// (Livre de sorts, Tireur d'élite): the shooters with it in range are told.
func TestTireurDElite(t *testing.T) {
	target := fighter("target", "b", 0, 0, 2.5, 0, 1, 1, 2)
	near := fighter("near", "a", 0, 20, 2.5, 0, 1, 1, 2)
	near.MissileKind, near.MissileCount = "arrow", 2
	far := fighter("far", "a", 0, 50, 2.5, 0, 1, 1, 2)
	far.MissileKind, far.MissileCount = "bolt", 2
	sh, err := Shooters(engine.NewTable(layoutOf(target, near, far, spellOn("s1", "Tireur d'élite", target))))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(sh[0].Marked, []string{"target"}) || sh[1].Marked != nil {
		t.Errorf("marked: got %v and %v, want [target] for near and none for far (45 cm)", sh[0].Marked, sh[1].Marked)
	}
}

func TestSpellDiskReading(t *testing.T) {
	b := fighter("B", "b", 0, 0, 2.5, 0, 1, 1, 3)
	c := fighter("C", "b", 20, 0, 2.5, 0, 1, 1, 3)
	for _, tc := range []struct {
		name    string
		spell   models.Disk
		toughB  int
		toughC  int
		warning string
		err     string
	}{
		{"the spell field names the spell", withExtra(models.Disk{ID: "s1", Name: "disque", Kind: models.KindSpell, X: 0, Y: 0, R: 1.5, Z: 1}, "spell", "shield"), 6, 3, "", ""},
		{"the target field overrides the geometry", withTarget(spellOn("s1", "Bouclier", b), "C"), 3, 6, "", ""},
		{"an unknown spell is ignored", spellOn("s1", "Abracadabra", b), 3, 3, "names no known spell", ""},
		{"Soins leaves the table once cast", spellOn("s1", "Soins", b), 3, 3, "takes that spell off the table", ""},
		{"a lasting spell on nothing", models.Disk{ID: "s1", Name: "Bouclier", Kind: models.KindSpell, X: 50, Y: 50, R: 1.5}, 3, 3, "lies on no creature", ""},
		{"a fireball reminder without damage", spellOn("s1", "Boule de feu", b), 3, 3, "holds no damage", ""},
		{"a target not on the table", withTarget(spellOn("s1", "Bouclier", b), "Z"), 0, 0, "", `target "Z" is not on the table`},
		{"a spell field that is not a name", withExtra(spellOn("s1", "Bouclier", b), "spell", 3), 0, 0, "", `field "spell" must be`},
		{"an affected list that is not a list", withExtra(spellOn("s1", "Protection", b), "affected", "B"), 0, 0, "", `"affected" must be a list`},
		{"an affected disk not on the table", withExtra(spellOn("s1", "Protection", b), "affected", []string{"Z"}), 0, 0, "", `no disk "Z"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Resolve(engine.NewTable(layoutOf(b, c, tc.spell)))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("got error %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			// Creatures are read when they fight or are hit: read them here.
			fx, _ := SpellEffects(engine.NewTable(layoutOf(b, c, tc.spell)))
			cb, _ := CreatureOf(b)
			cc, _ := CreatureOf(c)
			if got := fx.Of(0).ApplyTo(cb).Toughness; got != tc.toughB {
				t.Errorf("B: got toughness %d, want %d", got, tc.toughB)
			}
			if got := fx.Of(1).ApplyTo(cc).Toughness; got != tc.toughC {
				t.Errorf("C: got toughness %d, want %d", got, tc.toughC)
			}
			w := strings.Join(r.Warnings, "; ")
			if (tc.warning == "") != (w == "") || !strings.Contains(w, tc.warning) {
				t.Errorf("warnings: got %q, want %q", w, tc.warning)
			}
		})
	}
}

func TestSpellsInMovement(t *testing.T) {
	archer := fighter("archer", "elves", 0, 0, 2.5, 0, 1, 1, 2) // movement 3
	for _, tc := range []struct {
		name    string
		extra   []models.Disk
		x, y    float64
		legal   bool
		move    int
		problem string
	}{
		// "Vitesse ... un bonus de 3 points à sa capacité de Mouvement
		// durant cette phase d'activation" (Livre de sorts).
		{"Vitesse: four flips with movement 3+3", []models.Disk{spellOn("s1", "Vitesse", archer)}, 0, -20, true, 6, ""},
		// "Zap ... un bonus de 2 points à la capacité de Mouvement de tous
		// les Disks à portée" (30 cm around the caster, disk on the caster).
		{"Zap: a caster 20 cm away gives +2", []models.Disk{fighter("mage", "elves", 25, 0, 2.5, 0, 1, 1, 2), spellOn("s1", "Zap", fighter("mage", "elves", 25, 0, 2.5, 0, 1, 1, 2))}, 0, -25, true, 5, ""},
		{"Zap: a caster 40 cm away gives nothing", []models.Disk{fighter("mage", "elves", 45, 0, 2.5, 0, 1, 1, 2), spellOn("s1", "Zap", fighter("mage", "elves", 45, 0, 2.5, 0, 1, 1, 2))}, 0, -20, false, 3, "needs 4 flips"},
		// "Immobilisation: empêche le Disk ciblé d'être déplacé durant
		// cette phase d'activation" (its disk accepted as a reminder).
		{"Immobilisation", []models.Disk{spellOn("s1", "Immobilisation", archer)}, 0, -5, false, 3, "may not move"},
		// "Répulsion ... Personne ne peut voler par dessus ou atterrir sur
		// ce Disk".
		{"Répulsion: nobody lands on it", []models.Disk{fighter("orc", "orcs", 10, 0, 2.5, 0, 1, 1, 2), withTarget(models.Disk{ID: "s1", Name: "Répulsion", Kind: models.KindSpell, X: 60, Y: 60, R: 1.5}, "orc")}, 6, 0, false, 3, "nobody may land"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := layoutOf(append([]models.Disk{archer}, tc.extra...)...)
			m, err := CheckMove(before, moved(before, "archer", tc.x, tc.y), MoveOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if m.Legal != tc.legal || m.Movement != tc.move {
				t.Errorf("got legal %v movement %d (%v, bonuses %v), want legal %v movement %d", m.Legal, m.Movement, m.Problems, m.Bonuses, tc.legal, tc.move)
			}
			if tc.problem != "" && !strings.Contains(strings.Join(m.Problems, "; "), tc.problem) {
				t.Errorf("problems: got %v, want one with %q", m.Problems, tc.problem)
			}
		})
	}
}

// TestRepulsionStopsFlyers: a flyer passes over a ring of non-flying
// disks, but not when they are under Répulsion ("Personne ne peut voler
// par dessus ... ce Disk", Livre de sorts).
func TestRepulsionStopsFlyers(t *testing.T) {
	flyer := fighter("archer", "elves", 0, 0, 2.5, 0, 1, 1, 2)
	flyer.Flying = true
	disks := append([]models.Disk{flyer}, ring("orcs", 8, 5, 2.5, false)...)
	before := layoutOf(disks...)
	if m, _ := CheckMove(before, moved(before, "archer", 15, 0), MoveOptions{}); !m.Legal {
		t.Fatalf("without Répulsion: got %v, want legal", m.Problems)
	}
	for _, d := range disks[1:] {
		before.Disks = append(before.Disks, withTarget(models.Disk{ID: "s-" + d.ID, Name: "Répulsion", Kind: models.KindSpell, X: 80, Y: 80, R: 1.5}, d.ID))
	}
	m, err := CheckMove(before, moved(before, "archer", 15, 0), MoveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Legal || m.MinFlips != -1 {
		t.Errorf("with Répulsion: got legal %v flips %d, want illegal, no path", m.Legal, m.MinFlips)
	}
}

// TestMissileThroughSpellDisk: "Tout projectile touchant même partiellement
// un Disk inflige les dommages" ("Tirer"); a spell disk left on a creature
// as a reminder is not a Disk (a creature) and does not shield it. The
// arrow lies on the Bouclier disk only: the creature under it takes 2.
func TestMissileThroughSpellDisk(t *testing.T) {
	b := fighter("B", "b", 0, 0, 2.5, 0, 1, 1, 3)
	l := layoutOf(b, spellOn("s1", "Bouclier", b))
	l.Tokens = []models.Token{arrowAt("f1", 0, 0)}
	tb := engine.NewTable(l)
	if got := tb.IDs(tb.Hits(0)); !reflect.DeepEqual(got, []string{"s1"}) {
		t.Fatalf("geometry: got hits %v, want the spell disk s1 only", got)
	}
	r := resolve(t, l)
	if !reflect.DeepEqual(r.Missiles[0].Disks, []string{"B"}) || r.Damage["B"] != 2 {
		t.Errorf("got missile disks %v and damage %v, want B hit for 2", r.Missiles[0].Disks, r.Damage)
	}
}
