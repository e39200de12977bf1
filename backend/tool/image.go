package tool

// Imager is implemented by a result that is an image for the model (read_file of a PNG): the faces that can carry
// one send it as an image (MCP's image block, the window's image part) beside the text form, which says what it is.
type Imager interface {
	// Image returns the image's media type and bytes; ok is false when this result holds none.
	Image() (mediaType string, data []byte, ok bool)
}

// Image is the result's image, if it is one.
func (r Result) Image() (mediaType string, data []byte, ok bool) {
	if im, is := r.value.(Imager); is {
		return im.Image()
	}
	return "", nil, false
}
