// Package track follows a live table from frame to frame: it gives the
// disks found in each frame stable identities that survive moves by
// flipping, learns what each disk looks like (both faces), holds rulings
// back until the table has settled, ignores the region under a hand or an
// arm, and notices a bumped camera.
//
// The pieces, each usable alone:
//   - Gate: the settle gate (no motion and no hand for a while: rule once;
//     a shorter quiet spell: read and buffer, rule nothing);
//   - Differ: cheap frame differencing on a coarse grid: motion against
//     the previous frame, a hand or arm against the last settled frame;
//   - Signature: a rotation-invariant colour description of a disk's art
//     and rim, in rings;
//   - Tracker: identities from layouts, with the rules as priors (a disk
//     moves at most its movement in flips, one diameter each; a killed disk
//     does not come back), ambiguities returned as questions, and the
//     re-anchoring of a bumped camera from the disks that did not move;
//   - Pipeline: the above wired around a detector, frame by frame.
//
// Frames come in as image.Image and leave as models.Layout; no OpenCV type
// and no Mat is used here, so the package's tests run without a camera.
//
// track imports models and calibration; it must not import vision (a
// detector comes in through the Detector interface), engine, ui or cmd.
package track
