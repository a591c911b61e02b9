// Package calibration owns the mapping between camera pixels and table
// centimetres: the camera model (intrinsics and lens distortion), camera
// calibration from views of a printed chessboard, the table plane (from a
// chessboard lying on the table or from four or more points whose table
// coordinates the user gives), the versioned calibration file, and the
// quality report (RMS in pixels, scale check, expected uncertainty in mm).
//
// Frames and units:
//   - image frame: pixels, u to the right and v down from the top-left
//     corner of the frame (type Pixel);
//   - table frame: centimetres on the table plane (models.TablePoint),
//     origin at the first inner corner of the chessboard lying on the
//     table, x along its rows, y along its columns (see
//     shared/spec/table-model.md); heights above the table are in
//     centimetres too (a 2 mm disk lying on another has its top face at
//     0.4 cm).
//
// The maths (projection, undistortion, homographies, pose, uncertainty
// propagation) is pure Go and safe for concurrent use on values that are
// not being changed. OpenCV (gocv) is used only where it must: finding
// chessboard corners in an image and calibrateCamera. No gocv type
// appears in an exported signature, and every Mat is closed on every path
// by the function that creates it.
//
// calibration imports models and gocv; it must not import engine, vision,
// ui or cmd.
package calibration
