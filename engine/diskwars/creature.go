package diskwars

import (
	"fmt"
	"strings"

	"tableref/engine"
	"tableref/models"
)

// Keywords of Diskwars disks (field "keywords" of a disk).
const (
	KeywordFlying    = "flying"    // Vol
	KeywordSwift     = "swift"     // Rapidité
	KeywordReckless  = "reckless"  // Téméraire
	KeywordBerserk   = "berserk"   // Berserk
	KeywordMomentary = "momentary" // Dommages momentanés
	KeywordUnique    = "unique"    // Unique
	KeywordCaster    = "spellcaster"
)

// BerserkBonus is what Berserk adds to attack, defence and toughness after
// the disk attacked the turn before ("Berserk").
const BerserkBonus = 2

// Creature is a creature disk's values for this turn, bonuses applied.
type Creature struct {
	ID        string `json:"id"`
	Attack    int    `json:"attack"`
	Defense   int    `json:"defense"`
	Toughness int    `json:"toughness"`
	// Wounds is how many wounds the disk can take (1 for most disks).
	Wounds    int  `json:"wounds"`
	Movement  int  `json:"movement"`
	Reckless  bool `json:"reckless,omitempty"`
	Swift     bool `json:"swift,omitempty"`
	Momentary bool `json:"momentary,omitempty"`
	Flying    bool `json:"flying,omitempty"`
	// Berserk is true when the Berserk bonus applies this turn.
	Berserk bool `json:"berserk,omitempty"`
	// Effects names the spell disks whose lasting effects changed these
	// values, "Bouclier (s1)" (see effects.go).
	Effects []string `json:"effects,omitempty"`
}

// IsCreature reports whether a disk is a creature for the rules: neither
// terrain nor spell, and either of kind creature or carrying stats. Disks of
// unknown kind without stats (vision could not tell) are left out.
func IsCreature(d models.Disk) bool {
	if d.IsTerrain() || d.Kind == models.KindSpell {
		return false
	}
	return d.Kind == models.KindCreature || len(d.Stats) > 0
}

// IsFlying reports whether a disk flies: field "flying" or keyword flying.
func IsFlying(d models.Disk) bool { return d.Flying || d.HasKeyword(KeywordFlying) }

// CasterLevel returns the level of a spellcaster (keyword "spellcaster:N"),
// 0 for a disk that casts no spells.
func CasterLevel(d models.Disk) int {
	n, ok := d.KeywordValue(KeywordCaster)
	if !ok || n < 0 {
		return 0
	}
	return n
}

// MissingStatError says which statistic the rules needed and did not find.
type MissingStatError struct {
	Disk, Stat, Why string
}

func (e *MissingStatError) Error() string {
	return fmt.Sprintf("disk %q: stats.%s is missing or invalid (%s)", e.Disk, e.Stat, e.Why)
}

// CreatureOf reads a creature's values for this turn from its disk:
// attack, defense, toughness (required, toughness at least 1), wounds
// (default 1), movement (default 0), and the keywords. Berserk adds
// BerserkBonus to attack, defence and toughness when attacked_last_turn is
// set (Tribu d'Ulc: 5/3/4 becomes 7/5/6).
func CreatureOf(d models.Disk) (Creature, error) {
	c := Creature{ID: d.ID, Wounds: 1}
	for _, s := range []struct {
		name string
		dst  *int
	}{{"attack", &c.Attack}, {"defense", &c.Defense}, {"toughness", &c.Toughness}} {
		v, ok := d.Stat(s.name)
		if !ok {
			return Creature{}, &MissingStatError{d.ID, s.name, "a creature that is hit or fights needs attack, defense and toughness"}
		}
		*s.dst = v
	}
	if c.Toughness < 1 {
		return Creature{}, &MissingStatError{d.ID, "toughness", fmt.Sprintf("must be at least 1, got %d", c.Toughness)}
	}
	if w, ok := d.Stat("wounds"); ok {
		if w < 1 {
			return Creature{}, &MissingStatError{d.ID, "wounds", fmt.Sprintf("must be at least 1, got %d", w)}
		}
		c.Wounds = w
	}
	c.Movement, _ = d.Stat("movement")
	c.Reckless = d.HasKeyword(KeywordReckless) || d.HasKeyword("téméraire")
	c.Swift = d.HasKeyword(KeywordSwift) || d.HasKeyword("rapidité")
	c.Momentary = d.HasKeyword(KeywordMomentary)
	c.Flying = IsFlying(d)
	if (d.HasKeyword(KeywordBerserk)) && d.AttackedLastTurn {
		c.Berserk = true
		c.Attack += BerserkBonus
		c.Defense += BerserkBonus
		c.Toughness += BerserkBonus
	}
	return c, nil
}

// blockers returns the creature disks lying on disk i (the disks that
// block it), in the rules' contact relation (contacts.go): terrain and
// spell disks never block, and a spell disk left on its target as a
// reminder does not keep a creature lying on it from blocking it.
func blockers(t *engine.Table, i int) []int { return blockersIn(creatureContacts(t, nil), i) }

func blockersIn(c contacts, i int) []int {
	var out []int
	for _, j := range c.PinnedBy(i) {
		if IsCreature(c.t.Disk(j)) {
			out = append(out, j)
		}
	}
	return out
}

// Blocked reports whether creature disk i is blocked: another creature
// disk lies on it ("Bloqué"). A blocked disk cannot be activated nor shoot.
func Blocked(t *engine.Table, i int) bool { return len(blockers(t, i)) > 0 }

// enemyPinned returns the enemy creatures disk i lies on.
func enemyPinned(t *engine.Table, i int) []int { return enemyPinnedIn(creatureContacts(t, nil), i) }

func enemyPinnedIn(c contacts, i int) []int {
	var out []int
	for _, j := range c.Pins(i) {
		if IsCreature(c.t.Disk(j)) && models.Enemies(c.t.Disk(i), c.t.Disk(j)) {
			out = append(out, j)
		}
	}
	return out
}

// Attacking reports whether creature disk i lies on an enemy creature
// ("Attaquant : un Disk est considéré comme attaquant s'il chevauche un
// Disk ennemi").
func Attacking(t *engine.Table, i int) bool { return len(enemyPinned(t, i)) > 0 }

func normalise(s string) string {
	r := strings.NewReplacer("é", "e", "è", "e", "ê", "e", "à", "a", "â", "a", "ô", "o", "î", "i", "ï", "i", "û", "u", "ç", "c", "’", "'", "-", " ", "_", " ")
	return strings.Join(strings.Fields(r.Replace(strings.ToLower(s))), " ")
}

// Special skills (Compétences spéciales, CS)
//
// The rulebook does not list the special skills: each disk prints its
// own, and the book gives one in full, the Elf Bard's ("A pour donner à un
// Disk NA dans un rayon de 30cm +3M ce tour"). It also describes two
// abilities a disk's text may call on, Embuscade and Capture ("Autres
// règles importantes"). tableref models those that change a geometric
// ruling, as keywords:
//   - "bard" (French "barde"): activated, gives +3 movement this turn to a
//     disk without an activation marker within 30 cm, edge to edge
//     (MoveOptions.Bard, NonActivatedWithin).
//   - "ambush" (French "embuscade"): the disk is placed on an enemy disk
//     instead of flipping; it then attacks it (MoveOptions.Ambush).
// Prise de tête takes them away for the turn (DiskEffects.NoSkills).

// Special skill keywords.
const (
	SkillBard   = "bard"
	SkillAmbush = "ambush"
)

// Elf Bard figures: +3 movement, within 30 cm.
const (
	BardBonus                    = 3
	BardRange models.Centimetres = 30
)

// skillFrench are the French keywords accepted for each skill.
var skillFrench = map[string]string{SkillBard: "barde", SkillAmbush: "embuscade"}

// HasSkill reports whether a disk has a special skill, by its English or
// French keyword.
func HasSkill(d models.Disk, skill string) bool {
	return d.HasKeyword(skill) || (skillFrench[skill] != "" && d.HasKeyword(skillFrench[skill]))
}
