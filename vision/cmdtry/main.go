package main

import (
	"fmt"
	"image"
	"image/color"
	"os"
	"path/filepath"

	"gocv.io/x/gocv"

	"tableref/vision"
)

func main() {
	root := "/work/shared/realdata/circle-dataset-mini"
	var total vision.Score
	for _, name := range []string{"ball", "cake", "coins", "gobang", "insulator", "logo", "plates", "swatch"} {
		img := gocv.IMRead(filepath.Join(root, "images", name+".png"), gocv.IMReadColor)
		d := vision.NewDetector(vision.Options{})
		res, err := d.Detect(img)
		if err != nil {
			fmt.Println(name, err)
			continue
		}
		f, _ := os.Open(filepath.Join(root, "gt", name+".txt"))
		gt, _ := vision.ParseCircleTruth(f)
		gt = vision.OuterCircles(gt)
		var det []vision.Circle
		for _, dk := range res.Layout.Disks {
			det = append(det, vision.Circle{X: dk.Pixel.PX, Y: dk.Pixel.PY, R: dk.Pixel.PR})
		}
		s := vision.ScoreCircles(det, gt, 0.8)
		total = total.Add(s)
		fmt.Printf("%-10s det %2d gt %2d tp %2d  P %.2f R %.2f F %.2f\n", name, s.Detected, s.Truth, s.Matched, s.Precision, s.Recall, s.F)
		for _, dk := range res.Layout.Disks {
			best := 0.0
			for _, g := range gt {
				best = max(best, vision.CircleIoU(g, vision.Circle{X: dk.Pixel.PX, Y: dk.Pixel.PY, R: dk.Pixel.PR}))
			}
			fmt.Printf("    %s (%.1f,%.1f) r%.1f z%d conf %s iou %.2f\n", dk.ID, dk.Pixel.PX, dk.Pixel.PY, dk.Pixel.PR, dk.Z, dk.Extra["confidence"], best)
		}
		if os.Getenv("GT") != "" {
			for _, g := range gt {
				fmt.Printf("    gt (%.1f,%.1f) r%.1f\n", g.X, g.Y, g.R)
			}
		}
		if os.Getenv("DRAW") != "" {
			for _, dk := range res.Layout.Disks {
				gocv.Circle(&img, image.Pt(int(dk.Pixel.PX), int(dk.Pixel.PY)), int(dk.Pixel.PR), color.RGBA{255, 0, 0, 0}, 1)
				gocv.PutText(&img, fmt.Sprintf("%s z%d", dk.ID, dk.Z), image.Pt(int(dk.Pixel.PX), int(dk.Pixel.PY)), gocv.FontHersheyPlain, 0.8, color.RGBA{0, 0, 255, 0}, 1)
			}
			gocv.IMWrite("/tmp/det_"+name+".png", img)
		}
		img.Close()
		d.Close()
	}
	fmt.Printf("TOTAL det %d gt %d tp %d P %.3f R %.3f F %.3f\n", total.Detected, total.Truth, total.Matched, total.Precision, total.Recall, total.F)
}
