package ui

import (
	"image"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"
)

// liveView shows the frame with its overlay and turns a tap into a point
// of the image frame. Its methods must be called on the UI goroutine.
type liveView struct {
	widget.BaseWidget
	img   *canvas.Image
	onTap func(Pixel)
}

func newLiveView(onTap func(Pixel)) *liveView {
	v := &liveView{img: canvas.NewImageFromImage(image.NewRGBA(image.Rect(0, 0, 4, 3))), onTap: onTap}
	v.img.FillMode = canvas.ImageFillContain
	v.img.ScaleMode = canvas.ImageScaleSmooth
	v.ExtendBaseWidget(v)
	return v
}

// CreateRenderer shows the image alone.
func (v *liveView) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(v.img)
}

// MinSize keeps the view usable in a small window.
func (v *liveView) MinSize() fyne.Size { return fyne.NewSize(480, 360) }

// show replaces the image and refreshes the view.
func (v *liveView) show(img image.Image) {
	v.img.Image = img
	v.img.Refresh()
}

// Tapped maps the tap from widget to image pixels (the image is drawn
// whole, centred, keeping its aspect) and passes it on.
func (v *liveView) Tapped(ev *fyne.PointEvent) {
	if v.onTap == nil || v.img.Image == nil {
		return
	}
	if p, ok := v.toImage(ev.Position); ok {
		v.onTap(p)
	}
}

// toImage maps a position in the widget to a pixel of the image.
func (v *liveView) toImage(pos fyne.Position) (Pixel, bool) {
	b := v.img.Image.Bounds()
	sz := v.Size()
	if b.Dx() == 0 || b.Dy() == 0 || sz.Width <= 0 || sz.Height <= 0 {
		return Pixel{}, false
	}
	s := min(float64(sz.Width)/float64(b.Dx()), float64(sz.Height)/float64(b.Dy()))
	offU := (float64(sz.Width) - float64(b.Dx())*s) / 2
	offV := (float64(sz.Height) - float64(b.Dy())*s) / 2
	p := Pixel{(float64(pos.X)-offU)/s + float64(b.Min.X), (float64(pos.Y)-offV)/s + float64(b.Min.Y)}
	return p, p.U >= float64(b.Min.X) && p.V >= float64(b.Min.Y) && p.U < float64(b.Max.X) && p.V < float64(b.Max.Y)
}

// fromImage maps a pixel of the image to a position in the widget (for
// tests and tooltips).
func (v *liveView) fromImage(p Pixel) fyne.Position {
	b := v.img.Image.Bounds()
	sz := v.Size()
	s := min(float64(sz.Width)/float64(b.Dx()), float64(sz.Height)/float64(b.Dy()))
	offU := (float64(sz.Width) - float64(b.Dx())*s) / 2
	offV := (float64(sz.Height) - float64(b.Dy())*s) / 2
	return fyne.NewPos(float32((p.U-float64(b.Min.X))*s+offU), float32((p.V-float64(b.Min.Y))*s+offV))
}
