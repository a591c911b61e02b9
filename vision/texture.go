package vision

import "slices"

// textureShare is, for a circle found without a calibration, the share of
// its own outline's coverage at which the edges just beside it (3 and 4
// detection pixels inside and outside) make it a circle of texture: a
// patterned cloth, grass, a painting's brush strokes, where edges run
// every way and some line up on a circle no more than on the circles
// around it. A real outline stands out of what lies beside it: on the
// circle photographs of shared/realdata, OpenCV's water_coins.jpg and
// scikit-image's coins.png (77 outlines) the edges beside one reach at
// most 0.79 of its own; on 112 circles of texture found in 36 photographs
// of OpenCV's and scikit-image's samples that hold no disk (the patterned
// cloth of aloeR.jpg and aloeL.jpg, grass.png, baboon.jpg, ...) 54 reach
// 0.85 or more.
const textureShare = 0.85

// textureOffsets are the offsets, detection pixels, of the circles beside
// an outline that textureShare compares it with: far enough out of a
// sharp edge's reach (coverage takes edges within two pixels), near
// enough to see the same texture.
var textureOffsets = [...]float64{-4, -3, 3, 4}

// dropTexture removes, without a calibration, the circles whose outline
// does not stand out of the edges beside it (see textureShare). With a
// calibration a disk's size is known and the catalogue's votes and the
// rim checks judge it; without one, nothing else tells a disk from a
// ring of texture the size of one. It reports whether it removed any.
func (d *Detector) dropTexture(fits *[]diskFit, em edgeMap) bool {
	pl := d.plane
	if pl.cal != nil {
		return false
	}
	n := len(*fits)
	*fits = slices.DeleteFunc(*fits, func(f diskFit) bool { return pl.textured(f.c, em) })
	return len(*fits) < n
}

// textured reports whether the edges beside circle c cover as much of the
// circles there as its own outline's edges cover of it (see textureShare).
func (p *workPlane) textured(c circle, em edgeMap) bool {
	own, _ := p.coverageN(c, em, nil, coverageProbes(c, p.pixel))
	if own == 0 {
		return false
	}
	for _, k := range textureOffsets {
		b := circle{C: c.C, R: c.R + k*p.pixel}
		if b.R <= 0 {
			continue
		}
		if cov, _ := p.coverageN(b, em, nil, coverageProbes(b, p.pixel)); cov >= textureShare*own {
			return true
		}
	}
	return false
}
