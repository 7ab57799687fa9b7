package color

var gamma = []int{0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78, 91, 105, 120, 136, 153, 171, 190}

func LUT() []byte {
	lut := make([]byte, len(gamma))
	for i, v := range gamma {
		lut[i] = byte(v * 255 / 190)
	}
	return lut
}
