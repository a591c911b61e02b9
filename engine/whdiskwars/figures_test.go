package whdiskwars

import (
	"slices"
	"strings"
	"testing"

	"tableref/engine"
)

// The worked figures of the rules text shared/seeds/001_5f6384918549c6a5.txt
// ("Melee", Warhammer: Diskwars). The text shows pictures, not
// coordinates: each layout in testdata places the disks so that the pins
// are the ones the figure describes, and every test first checks those
// pins. Where the text gives no number, the stats in the layout are chosen
// to produce what it describes; each test says which.

// figure runs the ruleset on a figure's layout after checking its pins.
func figure(t *testing.T, file string, contacts []string) (Analysis, engine.Outcome) {
	t.Helper()
	tbl := loadTable(t, file)
	checkList(t, file+" contacts (the figure's pins)", contactsOf(tbl), contacts)
	a := mustRun(t, tbl)
	return a, a.Outcome()
}

// Figure 4: "Archaon moves to engage two enemies, the Militia Spearmen and
// the Sky Cutter, with the same flip ... the special ability of the Chaos
// Hero triggers twice ... Next, the Sun Dragon pins Archaon ... Archaon's
// special ability triggers again." Archaon is the attacker of one
// engagement with two defenders, and the defender of another; his "when
// this disk engages" ability fires once per engaged enemy, pinning or
// pinned. The Maiden Guard, near but not touching, is in no engagement.
func TestFigure4OneFlipEngagesTwoAndTriggersAreReciprocal(t *testing.T) {
	a, o := figure(t, "figure4.json", []string{"archaon>skycutter", "archaon>spearmen", "sundragon>archaon"})
	checkList(t, "engagements", engagementsOf(o), []string{"E1: archaon > spearmen,skycutter", "E2: sundragon > archaon"})
	checkList(t, "embattled", o.Embattled, []string{"archaon"})
	checkList(t, "resolve_before", pairsOf(o.ResolveBefore), []string{"E2<E1"})
	var got []string
	for _, tr := range o.Details.(Details).Triggers {
		if tr.After != "" {
			t.Errorf("trigger %+v: got after %q, want none (engaged before the Melee Phase)", tr, tr.After)
		}
		got = append(got, tr.Disk+">"+tr.Enemy)
	}
	checkList(t, "triggers", got, []string{"archaon>sundragon", "archaon>spearmen", "archaon>skycutter"})
	if i, _ := a.Table.Index("maiden"); a.Split.AttackIn[i] >= 0 || a.Split.DefendIn[i] >= 0 {
		t.Errorf("maiden guard: got engaged, want in no engagement")
	}
}

// Figure 5: "3 Orc disks are pinning 3 High Elf disks. The Orcs are the
// Attackers and will deal their Strength damage, while the Elves are the
// defenders and will deal their Counter Strength damage." One engagement.
// Stats and targets chosen: o1 and o2 name their targets, o3 has one
// enemy; e2 names o2; e3 picks by default o2 (toughness 3) over o3 (4).
func TestFigure5ThreeOrcsPinThreeElvesInOneEngagement(t *testing.T) {
	_, o := figure(t, "figure5.json", []string{"o1>e1", "o1>e2", "o2>e2", "o2>e3", "o3>e3"})
	checkList(t, "engagements", engagementsOf(o), []string{"E1: o1,o2,o3 > e1,e2,e3"})
	checkList(t, "embattled", o.Embattled, nil)
	checkList(t, "strikes", strikesOf(o), []string{
		"E1 normal: o1>e1 3", "E1 normal: o2>e2 3", "E1 normal: o3>e3 4",
		"E1 normal: e1>o1 1", "E1 normal: e2>o2 2", "E1 normal: e3>o2 1",
	})
	for _, ev := range o.Log {
		if ev.Kind != "damage" {
			continue
		}
		want := "(Counter Strength)"
		if slices.Contains([]string{"o1", "o2", "o3"}, ev.From) {
			want = "(Strength)"
		}
		if !strings.Contains(ev.Text, " "+want+" ") {
			t.Errorf("event %q: got no %s, want attackers to deal Strength, defenders Counter Strength", ev.Text, want)
		}
	}
	checkList(t, "casualties", o.Melee.Casualties, []string{"o2", "e1", "e3"})
}

// Figure 6 and its comments: the embattled disks are "The Wolf Riders,
// Grom the Paunch, the Knights Panther and the Hellstriders"; four
// engagements A (Wolf Riders, Boar Boyz, Grom, Hellstriders attacking the
// Hellblaster Volley Gun, Knights Panther, Flamers), B (Luthor Huss on the
// Wolf Riders), C (Valkia on Grom), D (Knights Panther, Marienburg
// Swordsmen, Talabheim Greatswords on the Hellstriders). The order: "you
// need to resolve engagements B and C before engagement A"; "Knights
// Panther defend in A and attack in D - Hellstriders defend in D and
// attack in A": a cycle the first player settles. Three armies (Empire,
// Orcs, Chaos) as in the figure. The layout lists the disks so that A is
// E1, B E2, C E3, D E4.
func TestFigure6ScrumFourEngagementsFourEmbattled(t *testing.T) {
	a, o := figure(t, "figure6.json", []string{
		"boar>flamers", "boar>hvg", "boar>knights", "greatswords>hellstriders", "grom>flamers",
		"hellstriders>hvg", "knights>hellstriders", "luthor>wolf", "swordsmen>hellstriders", "valkia>grom", "wolf>hvg",
	})
	checkList(t, "engagements", engagementsOf(o), []string{
		"E1: wolf,boar,hellstriders,grom > knights,hvg,flamers",
		"E2: luthor > wolf",
		"E3: valkia > grom",
		"E4: knights,swordsmen,greatswords > hellstriders",
	})
	checkList(t, "embattled", o.Embattled, []string{"wolf", "knights", "hellstriders", "grom"})
	checkList(t, "resolve_before", pairsOf(o.ResolveBefore), []string{"E1<E4", "E2<E1", "E3<E1", "E4<E1"})
	d := o.Details.(Details)
	checkList(t, "cycle", d.Cycles[0], []string{"E1", "E4"})
	if len(d.Cycles) != 1 {
		t.Errorf("cycles: got %v, want one (A and D)", d.Cycles)
	}
	// Default: B and C (ready) first, then the top-down choice A (Knights
	// Panther, z 3, defend) before D (Hellstriders, z 2).
	checkList(t, "order", d.Order, []string{"E2", "E3", "E1", "E4"})
	checkList(t, "overruled", pairsOf(d.Overruled), []string{"E4<E1"})
	checkList(t, "scrums", d.Scrums[0], []string{"E1", "E2", "E3", "E4"})
	// Every embattled disk attacks in one engagement and defends in another.
	for _, i := range a.Split.Embattled {
		if a.Split.AttackIn[i] == a.Split.DefendIn[i] {
			t.Errorf("%s: attacks and defends in the same engagement", a.Table.ID(i))
		}
	}
}

// Figure 6, the author's answer in the comments: "the resolution order of
// this particular scrum can be decided by the First Player, provided that
// both B and C are resolved before A". The first player's explicit order
// (engagement_order) picks D first, names engagements by an attacking
// disk too, and cannot put A before B.
func TestFigure6FirstPlayerSettlesTheCycle(t *testing.T) {
	tests := []struct {
		name      string
		order     string
		want      []string
		overruled []string
		warns     bool
	}{
		{"D first, before B and C", `["E4"]`, []string{"E4", "E2", "E3", "E1"}, []string{"E1<E4"}, false},
		{"A before D, by attacking disks", `["luthor", "valkia", "boar", "knights"]`, []string{"E2", "E3", "E1", "E4"}, []string{"E4<E1"}, false},
		{"A cannot come before B and C", `["E1", "E2", "E3", "E4"]`, []string{"E2", "E3", "E1", "E4"}, []string{"E4<E1"}, true},
		// "An engagement_order the rules do not allow is followed as far as
		// it can be, with a warning": naming A alone puts it before the
		// unnamed B and C, which the rules forbid.
		{"A named alone cannot come before B and C", `["E1"]`, []string{"E2", "E3", "E1", "E4"}, []string{"E4<E1"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tbl := loadTable(t, "figure6.json")
			l := tbl.Layout().Clone()
			setOption(&l, "engagement_order", tt.order)
			a := mustRun(t, engine.NewTable(l))
			d := a.Outcome().Details.(Details)
			checkList(t, "order", d.Order, tt.want)
			checkList(t, "overruled", pairsOf(d.Overruled), tt.overruled)
			if d.OrderFrom != "engagement_order" {
				t.Errorf("order_from: got %q, want engagement_order", d.OrderFrom)
			}
			if got := len(a.Warnings) > 0; got != tt.warns {
				t.Errorf("warnings: got %q, want some: %v", a.Warnings, tt.warns)
			}
		})
	}
}

// Figure 7: "Being subject to Frenzy, Azhag the Slaughterer will deal its
// Strength damage to both the Bloodcrushers and Archaon, while he has to
// choose which disk, between the Kurgan Marauders and the Plaguebearers,
// to deal its Counter Strength damage to. As the Black Orcs do not have
// Frenzy, they can only attack one enemy disk." Numbers chosen; Azhag
// chooses the Kurgan Marauders, the Black Orcs Archaon.
func TestFigure7FrenzyStrikesEveryPinnedEnemyWhenAttackingOnly(t *testing.T) {
	_, o := figure(t, "figure7.json", []string{
		"azhag>archaon", "azhag>bloodcrushers", "blackorcs>archaon", "blackorcs>bloodcrushers", "kurgan>azhag", "plaguebearers>azhag",
	})
	checkList(t, "engagements", engagementsOf(o), []string{"E1: azhag,blackorcs > bloodcrushers,archaon", "E2: kurgan,plaguebearers > azhag"})
	checkList(t, "strikes", strikesOf(o), []string{
		"E2 normal: kurgan>azhag 3", "E2 normal: azhag>kurgan 2", "E2 slow: plaguebearers>azhag 4",
		"E1 normal: azhag>bloodcrushers 3", "E1 normal: azhag>archaon 3", "E1 normal: blackorcs>archaon 4",
		"E1 normal: bloodcrushers>blackorcs 2", "E1 normal: archaon>blackorcs 4",
	})
	checkList(t, "casualties", o.Melee.Casualties, []string{"blackorcs"})
	checkMap(t, "wounds", o.Melee.Wounds, map[string]int{"azhag": 1, "archaon": 1})
	checkMap(t, "damage", o.Melee.Damage, map[string]int{"bloodcrushers": 3, "kurgan": 2})
}

// Figure 8: "Grimgor's Swift (Strength) keyword allows him to attack
// before the other disks, and to deal 6 damage to the Bloodthirster and
// wound it. In the next attack segment, both the Bloodthirster and the
// Black orcs can attack. The Bloodthirster chooses to deal 5 damage to
// Grimgor, while the Black Orc's 6 damage are enough to deal another
// wound and kill the daemon." Chosen: Bloodthirster toughness 6, stamina
// 1; Grimgor toughness 6. Summed in one step the 12 damage would make one
// wound only: the two wounds come from the two steps.
func TestFigure8SwiftStrikesFirstAndStaminaTakesTwoWounds(t *testing.T) {
	_, o := figure(t, "figure8.json", []string{"blackorcs>bloodthirster", "grimgor>bloodthirster"})
	checkList(t, "strikes", strikesOf(o), []string{
		"E1 swift: grimgor>bloodthirster 6", "E1 normal: blackorcs>bloodthirster 6", "E1 normal: bloodthirster>grimgor 5",
	})
	checkList(t, "wounds", eventsOf(o, "wound"), []string{"E1 swift: bloodthirster", "E1 normal: bloodthirster"})
	checkList(t, "casualties", o.Melee.Casualties, []string{"bloodthirster"})
	checkMap(t, "damage", o.Melee.Damage, map[string]int{"grimgor": 5})
}

// Figure 9: "the first engagement to be resolved is that between the Stone
// Fangz Shaman and the Plaguebearers. The Plaguebearers are Slow, so the
// Shaman attacks first, dealing 2 damage, then the daemons respond with 5
// damage, killing the Shaman. Then ... the Plaguebearers and Grimgor
// Ironhide, which has a chance to attack first ... and deal another 4
// damage. The Plaguebearers are destroyed before they have a chance to
// attack Grimgor. Finally ... The Swift attack from Grimgor and the Swift
// counterattack from the Militia Spearmen are simultaneous. The Orc Hero
// chooses to damage the Swordmasters of Hoeth, who are destroyed." The
// Swordmasters' Swift (Strength) does not speed their Counter Strength.
// Chosen: Shaman toughness 4, Plaguebearers toughness 5, Swordmasters 4,
// Spearmen counter 2; three sides (Orcs, Chaos, High Elves).
func TestFigure9ScrumWithSlowAndSwift(t *testing.T) {
	_, o := figure(t, "figure9.json", []string{"grimgor>spearmen", "grimgor>swordmasters", "plaguebearers>grimgor", "shaman>plaguebearers"})
	checkList(t, "engagements", engagementsOf(o), []string{"E1: shaman > plaguebearers", "E2: plaguebearers > grimgor", "E3: grimgor > swordmasters,spearmen"})
	checkList(t, "resolve_before", pairsOf(o.ResolveBefore), []string{"E1<E2", "E2<E3"})
	checkList(t, "order", o.Details.(Details).Order, []string{"E1", "E2", "E3"})
	checkList(t, "strikes", strikesOf(o), []string{
		"E1 normal: shaman>plaguebearers 2", "E1 slow: plaguebearers>shaman 5",
		"E2 normal: grimgor>plaguebearers 4",
		"E3 swift: grimgor>swordmasters 6", "E3 swift: spearmen>grimgor 2",
	})
	checkList(t, "casualties", o.Melee.Casualties, []string{"shaman", "plaguebearers", "swordmasters"})
	checkMap(t, "damage", o.Melee.Damage, map[string]int{"grimgor": 2})
}

// Figure 10: "Though overlapping the Steam Tank, Tyrion is only engaging
// the Marienburg Swordsmen. When the scrum solves, Tyrion destroys the
// Swordsmen and, as they are removed, he finds himself engaged with the
// Steam Tank. His special ability immediately resolves ... as Tyrion
// wasn't engaged with the Steam Tank at the beginning of the Melee Phase,
// neither disk can damage the other, so the Steam Tank has to attack the
// Ellyrian Reavers." Chosen: Tyrion strength 6 against the Swordsmen's
// toughness 4.
func TestFigure10NewEngagementIsReportedNotResolved(t *testing.T) {
	_, o := figure(t, "figure10.json", []string{"swordsmen>tank", "tank>reavers", "tyrion>swordsmen"})
	checkList(t, "engagements", engagementsOf(o), []string{"E1: tyrion > swordsmen", "E2: tank > reavers"})
	d := o.Details.(Details)
	want := NewEngagementReport{Attacker: "tyrion", Defender: "tank", After: "E1", Step: "normal"}
	if len(d.NewEngagements) != 1 || d.NewEngagements[0] != want {
		t.Errorf("new engagements: got %+v, want [%+v]", d.NewEngagements, want)
	}
	// Tyrion's ability fired when he engaged the Swordsmen (before the
	// phase) and fires again against the Steam Tank after E1's casualties.
	wantTriggers := []TriggerReport{{Disk: "tyrion", Enemy: "swordsmen"}, {Disk: "tyrion", Enemy: "tank", After: "E1", Step: "normal"}}
	if !slices.Equal(d.Triggers, wantTriggers) {
		t.Errorf("triggers: got %+v, want %+v", d.Triggers, wantTriggers)
	}
	checkList(t, "strikes", strikesOf(o), []string{
		"E1 normal: tyrion>swordsmen 6", "E1 normal: swordsmen>tyrion 2",
		"E2 normal: tank>reavers 5", "E2 normal: reavers>tank 2",
	})
}
