package whdiskwars

import (
	"os"
	"path/filepath"
	"testing"

	"tableref/engine"
	"tableref/models"
)

// FuzzAnalyze: any layout the loader accepts is analysed without a panic,
// with no negative damage or wounds, or refused with an error. The seed
// corpus is every layout in testdata.
func FuzzAnalyze(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"version":1,"engagement_order":["E1",3],"disks":[{"x":0,"y":0,"r":2,"z":1,"owner":"a","stats":{"strength":1000,"counter":0,"toughness":1}},{"x":1,"y":0,"r":2,"owner":"b","targets":"x","stats":{"strength":1,"counter":1,"toughness":1}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := models.Parse(data)
		if err != nil {
			return
		}
		a, err := Run(engine.NewTable(l))
		if err != nil {
			return
		}
		for i, h := range a.Result.Health {
			if h.Damage < 0 || h.Wounds < 0 {
				t.Fatalf("disk %s: negative damage or wounds %+v", a.Table.ID(i), h)
			}
		}
		_ = a.Outcome()
	})
}
