package vision

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"gocv.io/x/gocv"
)

// StreamResult is the detection of one frame of a stream, or why the frame
// was skipped (Err wraps ErrBadFrame).
type StreamResult struct {
	Frame int // index of the frame in the source, from 0
	// File is the image file the frame was read from, for an image file
	// or a folder of images ("" for a camera or a video).
	File   string
	Result Result
	Err    error
}

// fileSource is a Source that reads image files, and tells which one it
// read last.
type fileSource interface {
	Current() string
}

// DetectStream reads frames from src and detects them on workers
// goroutines, each with its own Detector, delivering the results to
// deliver in frame order. A webcam gives a frame every 33 ms; two workers
// on two cores keep up with it where one alone would fall behind, at the
// price of a frame of latency. It stops after maxFrames frames (0: all),
// at the end of the source, when the source is gone (returning its error),
// or when deliver returns an error. Frames that cannot be read or detected
// are delivered with their error and the stream goes on.
func DetectStream(src Source, opt Options, workers, maxFrames int, deliver func(StreamResult) error) error {
	return DetectStreamContext(context.Background(), src, opt, workers, maxFrames, deliver)
}

// DetectStreamContext is DetectStream, stopped early when ctx is done (a
// Ctrl-C): no frame is read after that, the frames already read are
// detected and delivered, and it returns ctx's error. A read under way
// (a camera's, at most a frame's time) is waited for.
//
// A frame of another size than opt.Calibration's is delivered as a bad
// frame, its error wrapping calibration.ErrMismatch too, without being
// detected.
func DetectStreamContext(ctx context.Context, src Source, opt Options, workers, maxFrames int, deliver func(StreamResult) error) error {
	workers = max(workers, 1)
	if workers > 1 {
		// The workers share the cores; OpenCV threading inside each only
		// adds contention. (The setting is the process's: run one stream
		// at a time.)
		prev := OpenCVThreads()
		SetOpenCVThreads(1)
		defer SetOpenCVThreads(prev)
	}
	type job struct {
		n     int
		file  string
		frame *gocv.Mat // from the pool, back to it once detected
		err   error
	}
	// Frames are read straight into Mats of a pool and go back to it once
	// detected: no frame is copied or allocated after the first few.
	// Every Mat of the pool is made here and closed here.
	size := 2*workers + 1
	pool := make(chan *gocv.Mat, size)
	owned := make([]*gocv.Mat, size)
	// Closed when the stream ends, every worker done.
	for i := range owned {
		m := gocv.NewMat()
		defer m.Close()
		owned[i] = &m
		pool <- owned[i]
	}
	jobs := make(chan job, workers)
	results := make(chan StreamResult, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := NewDetector(opt)
			defer d.Close()
			for j := range jobs {
				r := StreamResult{Frame: j.n, File: j.file, Err: j.err}
				if j.err == nil {
					r.Result, r.Err = d.Detect(*j.frame)
				}
				pool <- j.frame
				results <- r
			}
		}()
	}
	// The reader: one goroutine owns the source.
	var srcErr error
	stop := make(chan struct{})
	var readerDone sync.WaitGroup
	readerDone.Add(1)
	go func() {
		defer readerDone.Done()
		defer close(jobs)
		for n := 0; maxFrames == 0 || n < maxFrames; n++ {
			if ctx.Err() != nil {
				return
			}
			var frame *gocv.Mat
			select {
			case frame = <-pool:
			case <-stop:
				return
			case <-ctx.Done():
				return
			}
			err := src.Next(frame)
			if c := opt.Calibration; err == nil && c != nil {
				if cerr := c.CheckFrame(frame.Cols(), frame.Rows()); cerr != nil {
					err = fmt.Errorf("%w: %w", ErrBadFrame, cerr)
				}
			}
			file := ""
			if f, ok := src.(fileSource); ok {
				file = f.Current()
			}
			if errors.Is(err, io.EOF) {
				pool <- frame
				return
			}
			if err != nil && !errors.Is(err, ErrBadFrame) {
				pool <- frame
				srcErr = err
				return
			}
			select {
			case jobs <- job{n: n, file: file, err: err, frame: frame}:
			case <-stop:
				pool <- frame
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(results)
	}()
	// Deliver in order.
	pending := map[int]StreamResult{}
	next := 0
	var deliverErr error
	for r := range results {
		pending[r.Frame] = r
		for {
			p, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			if deliverErr == nil {
				if err := deliver(p); err != nil {
					deliverErr = err
					close(stop)
				}
			}
		}
	}
	readerDone.Wait()
	if deliverErr != nil {
		return deliverErr
	}
	if srcErr != nil {
		if strings.HasPrefix(srcErr.Error(), src.Name()+":") {
			return srcErr // it names its source already
		}
		return fmt.Errorf("%s: %w", src.Name(), srcErr)
	}
	return ctx.Err()
}
