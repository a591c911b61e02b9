package greatwar

import (
	"tableref/engine"
	"tableref/models"
)

const source = "../shared/seeds/000_9d00b7c3481c6c50.txt"

func terrain(id, kind, owner, faction string, x, y models.Centimetres) models.Disk {
	r := models.Centimetres(4)
	if kind == Homeland {
		r = 6
	}
	return models.Disk{ID: id, Kind: models.KindTerrain, Terrain: kind, Owner: owner, Faction: faction, X: x, Y: y, R: r}
}

func unit(id, name, owner string, x, y models.Centimetres) models.Disk {
	return models.Disk{ID: id, Name: name, Kind: models.KindCreature, Owner: owner, X: x, Y: y, R: 1.5, Z: 1}
}

// fourFactions is a legal setup: Knights and Elves (good) on the left,
// Orcs and Uthuk (evil) on the right, a central mountain, a forest and a
// mountain placed by the good players, a lake and a ruins by the evil.
func fourFactions() models.Layout {
	return models.Layout{Version: 1, Table: &models.TableSize{Width: 180, Height: 120}, Disks: []models.Disk{
		terrain("hk", Homeland, "kate", "knights", 20, 20),
		terrain("he", Homeland, "eli", "elves", 20, 100),
		terrain("ho", Homeland, "oscar", "orcs", 160, 20),
		terrain("hu", Homeland, "ursula", "uthuk", 160, 100),
		terrain("mid", Mountain, "", "", 90, 60),
		terrain("forest", Forest, "kate", "", 50, 60),
		terrain("mtn2", Mountain, "eli", "", 60, 100),
		terrain("lake", Lake, "oscar", "", 130, 60),
		terrain("ruins", Ruins, "ursula", "", 120, 100),
	}}
}

func with(l models.Layout, ds ...models.Disk) *engine.Table {
	l.Disks = append(append([]models.Disk{}, l.Disks...), ds...)
	return engine.NewTable(l)
}
