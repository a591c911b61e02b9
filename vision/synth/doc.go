// Package synth renders synthetic photographs of a Diskwars table with
// their ground truth, deterministically from a seed, for tests and
// benchmarks of the camera side.
//
// A scene is a virtual pinhole camera (60 to 120 cm above the table,
// tilted up to 35 degrees, any yaw, optional radial distortion) over a
// textured table; cardboard disks of Diskwars sizes (creatures 44.5, 50.8,
// 63.5, 88.9 and 104 mm across, spells 25 mm, terrain 127 and 152 mm), 2 mm
// thick, with procedural printed art full of circles and lines and a
// coloured rim, overlapping up to three high; tokens (square, round and
// elongated chits) dropped on and between them. The renderer ray-casts
// every pixel (real thickness and perspective: a disk lying on another is
// 2 mm higher, its side wall shows), with soft shadows from a directional
// light, uneven light and vignetting, sensor noise, blur and JPEG, in
// three difficulty tiers. For each scene it also renders the matching
// view of the calibration board lying on the table, whose first inner
// corner is the origin of the table frame.
//
// The ground truth is a models.Layout: every disk's x, y, r (cm), z,
// px, py, pr (pixels), rim and kind, every token's x, y, r, poly and the
// disks it touches.
//
// synth imports models and calibration (for the camera model) and the
// standard library; it must not import engine, ui or cmd, and it uses no
// OpenCV: images are plain Go images.
package synth
